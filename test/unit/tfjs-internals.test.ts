/**
 * The tfjs-converter internals the runtime reads (runtime/graph-model/tfjs-internals.ts): if a tfjs
 * upgrade changes them, these fail first and say what changed, before run() silently picks the
 * wrong executor.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadCallbackModel, type tf } from '../../runtime/index.js';
import { executorOf, firstAsyncOnlyNode } from '../../runtime/graph-model/tfjs-internals.js';
import { useBackend } from '../helpers/backends.js';

const converted = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'tf-converted');

describe('tfjs-converter internals', () => {
  useBackend('cpu');

  it('GraphModel.executor.graph.nodes holds every node with its op category and inputs (control inputs included)', async () => {
    const model = await loadCallbackModel(path.join(converted, 'float64', 'model.json'));
    try {
      const { graph, weightMap } = executorOf(model.graphModel);
      const identity = graph.nodes.Identity_1!;
      assert.equal(identity.op, 'Identity');
      assert.equal(typeof identity.category, 'string');
      assert.deepEqual(
        identity.inputs.map((n) => n.name),
        ['StatefulPartitionedCall/cube_plus', 'Func/StatefulPartitionedCall/output_control_node/_3', 'StatefulPartitionedCall/NoOp'],
      );
      assert.equal(graph.nodes['StatefulPartitionedCall/log1p64']!.category, 'custom');
      assert.equal(typeof weightMap, 'object');
    } finally {
      model.dispose();
    }
  });

  it("Switch and Merge are tfjs's 'control' category, and a sub-graph that avoids them needs no async executor", async () => {
    const model = await loadCallbackModel(path.join(converted, 'cond_callback', 'model.json'));
    try {
      const node = firstAsyncOnlyNode(model.graphModel, ['x'], ['Identity']);
      assert.ok(node && ['Switch', 'Merge'].includes(node.op), `found ${node?.op}`);
      assert.equal(firstAsyncOnlyNode(model.graphModel, ['x'], ['StatefulPartitionedCall/Sum']), undefined);
    } finally {
      model.dispose();
    }
  });

  it('a GraphModel without that shape fails loudly, naming the file to fix', () => {
    assert.throws(() => executorOf({ executor: { graph: {} } } as unknown as tf.GraphModel), /tfjs-internals\.ts/);
  });
});
