/**
 * The words and shapes of TF.js: Show tf.Variables (training-variables.ts), free of the vscode API
 * so they are tested with node --test: a quick pick row per variable, the actions on one, the
 * expression that reaches it anywhere, and the inspector's node for it.
 */
import { type GraphNodeEventBody, type TrainingVariable, VARIABLES_GRAPH } from '../debug-adapter/extension-protocol.js';
import { nonFiniteText } from '../runtime/non-finite-text.js';

/** A quick pick row: the name, `float32[784,32]`, and its values in short. */
export function variableItem(v: TrainingVariable): { label: string; description: string; detail: string } {
  const { info } = v;
  const type = `${info.dtype}[${info.shape.join(',')}]${v.trainable ? '' : ' · not trainable'}`;
  const stats = info.disposed
    ? 'disposed'
    : [
        ...(info.min !== undefined ? [`min ${short(info.min)}`, `max ${short(info.max!)}`, `mean ${short(info.mean!)}`] : []),
        nonFiniteText({ dtype: info.dtype, nanCount: info.nanCount ?? 0, infCount: info.infCount ?? 0, negInfCount: info.negInfCount }),
      ]
        .filter(Boolean)
        .join(' · ');
  return { label: v.name, description: type, detail: stats || `${info.size} values` };
}

export type VariableAction = { label: string; detail: string } & (
  | { kind: 'break'; condition?: string }
  | { kind: 'inspect' }
  | { kind: 'pin' }
  | { kind: 'copy' }
);

/** What can be done with a variable picked. */
export function variableActions(v: TrainingVariable): VariableAction[] {
  const expression = variableExpression(v.name);
  return [
    {
      kind: 'break',
      label: 'Break on Value Change',
      detail: 'Stop when it is assigned (an optimizer step, assign()): a data breakpoint in the Breakpoints view',
    },
    ...(v.info.dtype === 'string'
      ? []
      : [
          {
            kind: 'break' as const,
            condition: 'nonFinite',
            label: 'Break When It Becomes NaN/Inf',
            detail: 'Stop at the assign that first puts a NaN or ±Inf in it',
          },
        ]),
    { kind: 'inspect', label: 'Inspect', detail: 'Open its values in the tensor inspector' },
    { kind: 'pin', label: 'Pin in Tensor Inspector', detail: `${expression} at every stop: its summary and a chart over the stops` },
    { kind: 'copy', label: 'Copy Expression', detail: `${expression}: works in watches and the Debug Console from any frame` },
  ];
}

/** The expression for a variable in any frame (the agent's `$tfVariables` global). */
export function variableExpression(name: string): string {
  return `$tfVariables[${JSON.stringify(name)}]`;
}

/** The inspector's node for a variable: its value as output 0, paged by name (VARIABLES_GRAPH). */
export function variableNode(v: TrainingVariable): GraphNodeEventBody {
  return {
    reason: 'tf.Variable',
    description: `tf.Variable '${v.name}'`,
    node: {
      graph: VARIABLES_GRAPH,
      node: v.name,
      // TensorFlow's op for a resource variable.
      op: 'VarHandleOp',
      index: 0,
      inputNames: [],
      attrs: { trainable: v.trainable },
      inputs: [],
      outputs: [v.info],
      live: true,
    },
  };
}

function short(x: number): string {
  return Number(x.toPrecision(4)).toString().replace('-', '−');
}
