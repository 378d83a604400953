/**
 * "Where did the first NaN come from": of a model run's nodes, in execution order, the first whose
 * outputs hold NaN or Inf while its inputs were finite; or, when a graph input or weight already
 * held them, that one. A debugger stops there (its agent's "NaN/Inf in the graph" filter); the
 * message says what the inputs were: `first Inf: node log (Log), input 0 has 1 zero`.
 */
import { summarizeTensor, type TensorSummary } from '../summary.js';
import type { Tensor } from '../tf.js';
import type { NonFiniteFinder } from '../hook-types.js';
import { shared } from '../hooks.js';
import { inputFacts, nonFiniteKind as nonFinite } from '../non-finite-facts.js';

export type { NonFiniteFinder, NonFiniteOrigin } from '../hook-types.js';

const FLOAT = /^(float|complex)/;

export function createNonFiniteFinder(): NonFiniteFinder {
  let reported = false;
  /** Nodes of this run that produced outputs (their outputs were checked when they ran). */
  const produced = new Set<string>();
  return {
    check(e) {
      if (e.index === 0) {
        reported = false;
        produced.clear();
      }
      produced.add(e.node);
      if (reported) return undefined;
      const kind = nonFinite(e.outputs.map(summaryOf));
      if (!kind) return undefined;
      const inputs = e.inputs.map(summaryOf);
      // An input that is itself non-finite and came from no node of this run: a graph input or weight.
      const bad = inputs.findIndex((s) => s !== undefined && (s.nanCount > 0 || s.infCount > 0));
      if (bad >= 0) {
        const name = e.inputNames[bad]!;
        if (produced.has(name.replace(/:\d+$/, ''))) return undefined; // it came from an earlier node, told then
        reported = true;
        const held = nonFinite([inputs[bad]]) ?? kind;
        return {
          graph: e.graph,
          node: e.node,
          op: e.op,
          kind: held,
          cause: 'input',
          inputName: name,
          message: `first ${held}: \`${name}\`, input ${bad} of node \`${e.node}\` (${e.op}), already held ${held}`,
        };
      }
      reported = true;
      const facts = inputs.map((s, i) => inputFacts(s, i)).filter((f) => f !== '');
      return {
        graph: e.graph,
        node: e.node,
        op: e.op,
        kind,
        cause: 'node',
        message: `first ${kind}: node \`${e.node}\` (${e.op})${facts.length ? `, ${facts.join(', ')}` : ', from finite inputs'}`,
      };
    },
  };
}

function summaryOf(t: Tensor | undefined): TensorSummary | undefined {
  if (!t || t.isDisposed || !FLOAT.test(t.dtype)) return undefined;
  return summarizeTensor(t);
}

// A debugger's agent (which has no import of the runtime) finds the first NaN/Inf through this.
if (shared.tools) shared.tools.createNonFiniteFinder = createNonFiniteFinder;
