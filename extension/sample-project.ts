/**
 * The sample project of the walkthrough (TF.js Callbacks: Create Sample Project): a program whose
 * numpyFunction callback is the first place to stop, and a model.json whose EagerPyFunc node calls
 * back into callbacks.ts beside it (what a converted `tf.py_function` model holds), for the graph
 * view. It needs no install: the extension runs it with its own TF.js and runtime. No vscode
 * import: tested as is.
 */

/** The folder the sample is written to, inside the one the user picks. */
export const SAMPLE_FOLDER = 'tfjs-callbacks-sample';
/** The program's line the walkthrough asks for a breakpoint on (1-based). */
export const SAMPLE_BREAK_LINE = 10;

const MAIN = `// A first session with the TF.js Callback Debugger.
// 1. Set a breakpoint on line 10 (click left of its number).
// 2. Press F5 (or run "TF.js Callbacks: Debug Graph"): the program stops inside the callback, its
//    input tensor in Variables (the Callback scope) and in the Tensor Inspector.
import { loadCallbackModel, numpyFunction, tf, type NdArray } from 'tfjs-callback-debugger/runtime';
import { standardize } from './model/callbacks.js';

function scale_rows(x: NdArray): NdArray {
  const factor = 2;
  const scaled = x.map((v) => v * factor); // <- a breakpoint here
  return scaled;
}

const input = tf.tensor([[1, 2, 3], [4, 5, 6]], [2, 3], 'float32');
const y = numpyFunction(scale_rows, [input], 'float32');
console.log('scaled:', y.arraySync());

// A model whose graph calls back into JS: its node 'standardize' runs model/callbacks.ts.
// Open model/model.json and run "TF.js Callbacks: Open Graph View" to see it.
const model = await loadCallbackModel(new URL('./model/model.json', import.meta.url), { callbacks: { standardize } });
const out = model.execute(tf.tensor2d([[1, -2, 3, -4]])) as tf.Tensor;
console.log('model output:', out.arraySync());
`;

const CALLBACKS = `// The callbacks of model.json, bound by node name: its EagerPyFunc node 'standardize' (a
// tf.py_function in TensorFlow) receives tensors and returns one.
import { tf } from 'tfjs-callback-debugger/runtime';

export function standardize(h: tf.Tensor): tf.Tensor {
  const { mean, variance } = tf.moments(h, -1, true);
  return h.sub(mean).div(variance.add(1e-6).sqrt());
}
`;

const SHAPE = (dims: number[]) => ({ shape: { dim: dims.map((size) => ({ size: String(size) })) } });
const FLOAT = { type: 'DT_FLOAT' };

/** x [-1, 4] → dense/MatMul (a 4×4 kernel) → standardize (EagerPyFunc) → Relu. */
const MODEL = {
  format: 'graph-model',
  generatedBy: '2.16.1',
  convertedBy: 'tfjs-callback-debugger sample',
  modelTopology: {
    node: [
      { name: 'x', op: 'Placeholder', attr: { dtype: FLOAT, shape: SHAPE([-1, 4]) } },
      {
        name: 'dense/kernel',
        op: 'Const',
        attr: { value: { tensor: { dtype: 'DT_FLOAT', tensorShape: { dim: [{ size: '4' }, { size: '4' }] } } }, dtype: FLOAT },
      },
      { name: 'dense/MatMul', op: 'MatMul', input: ['x', 'dense/kernel'], attr: { T: FLOAT, transpose_a: { b: false }, transpose_b: { b: false } } },
      {
        name: 'standardize',
        op: 'EagerPyFunc',
        input: ['dense/MatMul'],
        // The token 'pyfunc_0', base64 as model.json writes strings.
        attr: { token: { s: 'cHlmdW5jXzA=' }, Tin: { list: { type: ['DT_FLOAT'] } }, Tout: { list: { type: ['DT_FLOAT'] } }, is_async: { b: false } },
      },
      { name: 'Relu', op: 'Relu', input: ['standardize'], attr: { T: FLOAT } },
    ],
    library: {},
    versions: { producer: 1482 },
  },
  weightsManifest: [{ paths: ['group1-shard1of1.bin'], weights: [{ name: 'dense/kernel', shape: [4, 4], dtype: 'float32' }] }],
};

/** The kernel's values: a rotation of the inputs with weights 1..4, little-endian float32. */
function kernelBytes(): Uint8Array {
  const kernel = new Float32Array(16);
  for (let i = 0; i < 4; i++) kernel[i * 4 + ((i + 1) % 4)] = i + 1;
  return new Uint8Array(kernel.buffer);
}

/** Each file of the sample by its path in the sample folder. */
export function sampleFiles(): Record<string, string | Uint8Array> {
  return {
    // TypeScript pinned to 5: what ts-node (if the user adds it) can load; 7, npm's latest, it cannot.
    'package.json': `${JSON.stringify({ name: SAMPLE_FOLDER, private: true, type: 'module', devDependencies: { typescript: '~5.9.3' } }, null, 2)}\n`,
    'main.ts': MAIN,
    'model/callbacks.ts': CALLBACKS,
    'model/model.json': `${JSON.stringify(MODEL)}\n`,
    'model/group1-shard1of1.bin': kernelBytes(),
  };
}
