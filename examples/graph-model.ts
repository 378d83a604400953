/**
 * A TF.js graph model with an EagerPyFunc node (as tf.py_function leaves in a converted model),
 * bound to a JS callback by node name.
 */
import { fileURLToPath } from 'node:url';
import { loadCallbackModel, selectBackend, tf } from 'tfjs-callback-debugger/runtime';
import { standardize } from './callbacks/standardize.js';

await selectBackend();

const modelPath = fileURLToPath(new URL('./models/standardize/model.json', import.meta.url));
const model = await loadCallbackModel(modelPath, { callbacks: { standardize } });
const x = tf.randomNormal([4, 16], 0, 1, 'float32', 42);
const y = model.execute(x) as tf.Tensor;
console.log(
  `graph model '${model.name}': nodes ${model.callbackNodes.map((n) => `${n.node} (${n.op}, token ${n.token})`).join(', ')}; output ${y.dtype}[${y.shape}], mean ${y.mean().dataSync()[0]!.toFixed(3)}`,
);
tf.dispose([x, y]);
model.dispose();
