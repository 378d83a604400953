/**
 * What the end-to-end test's workspace holds and what its steps look for: the programs written into
 * fresh projects (their lines found by `// @name` markers), the fixtures copied, the commands the
 * palette must list.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lineOf, lineOfMarker } from '../helpers/markers.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The workspace's graph.ts, copied from the debug adapter tests' fixture. */
export const GRAPH_PROGRAM = path.join(root, 'test', 'fixtures', 'debug', 'numpy-program.ts');
/** graph.ts: the breakpoint line inside the numpyFunction callback scale_rows, and the next one. */
export const BREAK_LINE = lineOf(GRAPH_PROGRAM, '@scale-rows-body');
export const NEXT_LINE = lineOf(GRAPH_PROGRAM, '@scale-rows-return'); // `return scaled;`
/** graph.ts: the numpyFunction(bad_dtype, …) call whose output does not match its Tout. */
export const MISMATCH_LINE = lineOf(GRAPH_PROGRAM, '@call-bad-dtype');
export const COMMANDS = [
  'TF.js Callbacks: Run Graph',
  'TF.js Callbacks: Debug Graph',
  'TF.js Callbacks: Open Tensor Inspector',
  'TF.js Callbacks: Open Graph View',
  'TF.js Callbacks: Select Backend',
  'TF.js Callbacks: Set Up Native Backend',
  'TF.js Callbacks: Break on Callback…',
];

/** A TS ES-module project's program: the float64 mistake, with the project's own tfjs. */
export const ESM_PROGRAM = `import * as tf from '@tensorflow/tfjs';
import { numpyFunction, tf as runtimeTf, type NdArray } from 'tfjs-callback-debugger/runtime';

function widen(a: NdArray): Float64Array {
  return Float64Array.from(a.data as Float32Array, (v) => v / 3);
}

console.log('one engine:', tf.engine() === runtimeTf.engine());
try {
  numpyFunction(widen, [tf.tensor([1, 2, 3])], 'float32');
} catch (err) {
  console.log('caught', (err as Error).message.split('\\n')[0]);
}
`;

/** A callback that throws, and nothing catches it. */
export const THROWS_PROGRAM = `import * as tf from '@tensorflow/tfjs';
import { numpyFunction, type NdArray } from 'tfjs-callback-debugger/runtime';

function checked_log(x: NdArray): NdArray {
  if ((x.data[0] as number) < 100) throw new RangeError('checked_log: input below 100'); // @throw
  return x.map(Math.log);
}

numpyFunction(checked_log, [tf.tensor([1, 2, 3])], 'float32');
`;
export const THROW_LINE = lineOfMarker(THROWS_PROGRAM, '@throw', 'THROWS_PROGRAM');

/** A CommonJS JS project's program (npm init -y), with the project's own tfjs. */
export const CJS_PROGRAM = `const tf = require('@tensorflow/tfjs');
const { numpyFunction, tf: runtimeTf } = require('tfjs-callback-debugger/runtime');

const y = numpyFunction((a) => a.map((v) => v * 2), [tf.tensor([1, 2, 3])], 'float32', { name: 'double' });
console.log('one engine:', tf.engine() === runtimeTf.engine(), Array.from(y.dataSync()).join(','));
`;

/** js-debug parity and tensor-only features (issue 16): a callback, then a model trained by model.fit. */
export const PARITY_PROGRAM = `import { numpyFunction, selectBackend, tf, type NdArray } from 'tfjs-callback-debugger/runtime';

await selectBackend({ backend: 'cpu', quiet: true });

function scale(x: NdArray): Float32Array {
  const factor = 2; // @parity-first
  const out = Float32Array.from(x.data as Float32Array, (v) => v * factor); // @parity-break
  return out; // @parity-return
}

const y = numpyFunction(scale, [tf.tensor1d([1, 2, 3, 4])], 'float32');
const model = tf.sequential({ layers: [tf.layers.dense({ units: 1, inputShape: [2], kernelInitializer: 'ones' })] });
model.compile({ optimizer: tf.train.sgd(0.1), loss: 'meanSquaredError' });
const kernel = model.layers[0]!.trainableWeights[0]!;
console.log('model ready', y.shape); // @parity-model
await model.fit(tf.ones([4, 2]), tf.zeros([4, 1]), { epochs: 1, batchSize: 4, verbose: 0 });
console.log('fitted', Array.from(kernel.read().dataSync()).join(','));
`;
export const PARITY_FIRST = lineOfMarker(PARITY_PROGRAM, '@parity-first', 'PARITY_PROGRAM');
export const PARITY_BREAK = lineOfMarker(PARITY_PROGRAM, '@parity-break', 'PARITY_PROGRAM');
export const PARITY_RETURN = lineOfMarker(PARITY_PROGRAM, '@parity-return', 'PARITY_PROGRAM');
export const PARITY_MODEL = lineOfMarker(PARITY_PROGRAM, '@parity-model', 'PARITY_PROGRAM');

/** Training state (issue 27 point 3): an ESM model.fit whose top level awaits while a custom layer's call() runs. */
export const TRAINING_PROGRAM = `import { selectBackend, tf } from 'tfjs-callback-debugger/runtime';

await selectBackend({ backend: 'cpu', quiet: true });

class Scale extends tf.layers.Layer {
  static className = 'Scale';
  private factor: ReturnType<tf.layers.Layer['addWeight']> | undefined;
  override build(inputShape: tf.Shape | tf.Shape[]): void {
    const shape = (Array.isArray(inputShape[0]) ? inputShape[0] : inputShape) as tf.Shape;
    this.factor = this.addWeight('factor', [shape[shape.length - 1]!], 'float32', tf.initializers.ones());
  }
  override call(inputs: tf.Tensor | tf.Tensor[]): tf.Tensor {
    return tf.tidy(() => tf.mul(Array.isArray(inputs) ? inputs[0]! : inputs, this.factor!.read())); // @training-call
  }
}
tf.serialization.registerClass(Scale);

const model = tf.sequential({
  layers: [tf.layers.dense({ units: 3, inputShape: [2], name: 'hidden', kernelInitializer: 'ones' }), new Scale({ name: 'scale' })],
});
model.compile({ optimizer: tf.train.sgd(0.01), loss: 'meanSquaredError' });
await model.fit(tf.ones([4, 2]), tf.zeros([4, 3]), { epochs: 2, batchSize: 4, verbose: 0 });
console.log('fitted');
`;
export const TRAINING_CALL = lineOfMarker(TRAINING_PROGRAM, '@training-call', 'TRAINING_PROGRAM');

/** The NaN-birth programs of test/fixtures/shapes/nan-births: a custom loss in its own module. */
export const NAN_FIXTURES = path.join(root, 'test', 'fixtures', 'shapes', 'nan-births');
export const NAN_LOG_LINE = lineOf(path.join(NAN_FIXTURES, 'loss.ts'), '@log');

/** Lines a second TF.js copy prints. */
export const SECOND_ENGINE = /already registered|Platform node has already been set|Hi, looks like you are running TensorFlow\.js/;

/**
 * Tensors over time (issue 44): model.fit on a 3-layer model whose custom layer centres each batch
 * in a pyFunction callback: stops in the callback give invocations to compare, a pinned weight,
 * the training curve and the model view.
 */
export const FIT_PROGRAM = `import { pyFunction, selectBackend, tf } from 'tfjs-callback-debugger/runtime';

await selectBackend({ backend: 'cpu', quiet: true });

/** Scales each feature by a learned factor; the batch is centred by a py_function callback first. */
class Scale extends tf.layers.Layer {
  static className = 'Scale';
  private factor: ReturnType<tf.layers.Layer['addWeight']> | undefined;
  override build(inputShape: tf.Shape | tf.Shape[]): void {
    const shape = (Array.isArray(inputShape[0]) ? inputShape[0] : inputShape) as tf.Shape;
    this.factor = this.addWeight('factor', [shape[shape.length - 1]!], 'float32', tf.initializers.ones());
  }
  override call(inputs: tf.Tensor | tf.Tensor[]): tf.Tensor {
    const x = Array.isArray(inputs) ? inputs[0]! : inputs;
    const centered = pyFunction(center_batch, [x], 'float32') as tf.Tensor;
    return tf.mul(centered, this.factor!.read());
  }
}
tf.serialization.registerClass(Scale);

function center_batch(x: tf.Tensor): tf.Tensor {
  return tf.sub(x, tf.mean(x, 0)); // @center
}

const model = tf.sequential({
  layers: [
    tf.layers.dense({ units: 4, inputShape: [3], name: 'hidden', activation: 'relu', kernelInitializer: 'glorotUniform' }),
    new Scale({ name: 'scale' }),
    tf.layers.dense({ units: 1, name: 'out' }),
  ],
});
model.compile({ optimizer: tf.train.sgd(0.05), loss: 'meanSquaredError' });
const xs = tf.randomNormal([64, 3], 0, 1, 'float32', 7);
const ys = tf.sum(xs, 1, true);
const history = await model.fit(xs, ys, { epochs: 3, batchSize: 16, verbose: 0, shuffle: false });
console.log('loss', history.history.loss.map((l) => Number(l).toFixed(3)).join(' → '));
`;
export const FIT_CENTER = lineOfMarker(FIT_PROGRAM, '@center', 'FIT_PROGRAM');
