/**
 * Runs a recorded graph on new inputs: `engine.runKernel` per kernel node inside one tf.tidy (so
 * gradient tapes see every kernel), and the wrapper's own path per callback node (so the callback
 * runs, and observers hear it, on every call).
 */
import { observingNodes, tellNodeObservers } from '../graph-model/node-hooks.js';
import { attrsAsJson } from '../graph-model/node-attrs.js';
import { tf, type Tensor } from '../tf.js';
import { traceErrorHere } from './errors.js';
import type { OutputStructure, ValueRef } from './graph.js';
import type { Recorded } from './tracer.js';

export type Replayable = Omit<Recorded<unknown>, 'result'>;

export function replay(name: string, graph: Replayable, leaves: readonly Tensor[]): unknown {
  const engine = tf.engine();
  return tf.tidy(() => {
    const values: (readonly Tensor[])[] = [];
    const valueAt = (ref: ValueRef): Tensor => {
      if (ref.kind === 'input') return leaves[ref.index]!;
      if (ref.kind === 'node') return values[ref.node]![ref.output]!;
      return captureOf(name, graph, ref.index);
    };
    // Node observers (graph-model/node-hooks.ts) hear each replayed node, as they hear a model's.
    const observed = observingNodes();
    let last = observed ? performance.now() : 0;
    for (const node of graph.nodes) {
      if (node.type === 'kernel') {
        const inputs = node.arrayInputs ? node.inputs.map((i) => valueAt(i.ref)) : Object.fromEntries(node.inputs.map((i) => [i.key, valueAt(i.ref)]));
        const out = engine.runKernel(node.kernel, inputs as tf.NamedTensorMap, node.attrs as tf.NamedAttrMap) as Tensor | Tensor[];
        values.push(Array.isArray(out) ? out : [out]);
      } else {
        const call = graph.replays.get(node.index)!;
        const inp = call.inp.map((x) => ('ref' in x ? valueAt(x.ref) : x.literal)) as Tensor[];
        const out = call.run({ kind: call.kind, op: call.op, func: call.func, inp, Tout: call.Tout, stateful: call.stateful, name: call.name });
        values.push(Array.isArray(out) ? out : [out]);
      }
      if (observed) {
        const now = performance.now();
        tellNodeObservers({
          graph: name,
          node: node.name,
          op: node.type === 'kernel' ? node.kernel : node.op,
          index: node.index,
          inputNames: node.inputs.map((i) => refName(graph, i.ref)),
          inputs: node.inputs.map((i) => valueAt(i.ref)),
          outputs: values[values.length - 1]!,
          attrs: () => (node.type === 'kernel' ? attrsAsJson(node.attrs) : {}),
          ms: now - last,
        });
        last = performance.now();
      }
    }
    return build(graph.output, valueAt) as tf.TensorContainer;
  });
}

/** How a node event names an input: the node (`n3_Multiply`, `:k` for a later output), `input0`, `capture1`. */
function refName(graph: Replayable, ref: ValueRef): string {
  if (ref.kind === 'input') return `input${ref.index}`;
  if (ref.kind === 'capture') return `capture${ref.index}`;
  const name = graph.nodes[ref.node]!.name;
  return ref.output > 0 ? `${name}:${ref.output}` : name;
}

function captureOf(name: string, graph: Replayable, index: number): Tensor {
  const t = graph.captureTensors[index]!;
  if (t.isDisposed) {
    const capture = graph.captures[index]!;
    throw traceErrorHere(
      // Only variables can go: the other captures are the graph's own snapshots.
      `tfFunction '${name}' reads ${capture.kind} '${capture.name ?? `${capture.dtype}[${capture.shape}]`}', which was disposed`,
      'keep it alive while the traced function is used, or dispose the traced function first.',
    );
  }
  return t;
}

/** The return value on this call; captured tensors are returned as clones, so disposing them keeps the graph whole. */
function build(output: OutputStructure, valueAt: (ref: ValueRef) => Tensor): unknown {
  switch (output.kind) {
    case 'tensor':
      return output.ref.kind === 'capture' ? valueAt(output.ref).clone() : valueAt(output.ref);
    case 'literal':
      return output.value;
    case 'array':
      return output.items.map((item) => build(item, valueAt));
    case 'object':
      return Object.fromEntries(output.entries.map(([k, v]) => [k, build(v, valueAt)]));
  }
}
