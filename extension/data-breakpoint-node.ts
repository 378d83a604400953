/**
 * A data breakpoint stop (the adapter's `dataBreakpoint` event) as the tensor inspector shows a
 * node: the tf.Variable as the node, its old value as the input, its new value and the change as
 * the outputs, why it stopped among the attributes. Its tensors page through `tensorData` with the
 * graph DATA_BREAKPOINT_GRAPH while the program is stopped there. No vscode import: tested as is.
 */
import { DATA_BREAKPOINT_GRAPH, type DataBreakpointEventBody, type GraphNodeEventBody } from '../debug-adapter/extension-protocol.js';

export function dataBreakpointNode(body: DataBreakpointEventBody): GraphNodeEventBody {
  const { hit } = body;
  return {
    reason: body.reason,
    description: body.description,
    node: {
      graph: DATA_BREAKPOINT_GRAPH,
      node: hit.variable,
      // TensorFlow's op for assigning a resource variable.
      op: 'AssignVariableOp',
      index: 0,
      inputNames: ['old value'],
      attrs: {
        why: hit.why,
        ...(hit.maxAbsChange !== undefined ? { 'max |change|': hit.maxAbsChange } : {}),
        ...(hit.conditionError ? { 'condition error': hit.conditionError } : {}),
      },
      inputs: [hit.old],
      outputs: hit.change ? [hit.new, hit.change] : [hit.new],
      live: true,
    },
  };
}
