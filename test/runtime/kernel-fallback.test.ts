/**
 * Kernels the chosen backend lacks (runtime/kernel-fallback.ts). TF.js's wasm backend has no
 * Conv2DBackpropFilter, so training a conv net there used to fail with "Kernel
 * 'Conv2DBackpropFilter' not registered for backend 'wasm'" where plain Node (cpu) would have run
 * it. Now cpu serves what wasm lacks or refuses, once said on stderr; what cpu cannot serve there
 * (complex numbers) fails naming the backend, the kernel and the fix.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { tempDir } from '../fixtures/callback-models.js';
import { runCli, writeFile } from '../fixtures/spawn.js';

const { dir, cleanup } = tempDir('kernel-fallback-');
after(cleanup);
writeFile(dir, 'package.json', JSON.stringify({ name: 'kernels', private: true, type: 'module' })); // top-level await

const TRAIN = `import { numpyFunction, selectBackend, tf, type NdArray } from 'tfjs-callback-debugger/runtime';
await selectBackend();
const model = tf.sequential({ layers: [tf.layers.conv2d({ inputShape: [6, 6, 1], filters: 2, kernelSize: 3, activation: 'relu' }), tf.layers.flatten(), tf.layers.dense({ units: 1 })] });
model.compile({ optimizer: 'sgd', loss: 'meanSquaredError' });
const xs = tf.randomNormal([8, 6, 6, 1], 0, 1, 'float32', 1);
const ys = numpyFunction((x: NdArray) => new Float32Array(x.shape[0]!).fill(1), [xs], 'float32').reshape([8, 1]);
const history = await model.fit(xs, ys, { epochs: 3, verbose: 0 });
const afterFirst = tf.memory().numTensors;
const cpu = tf.findBackend('cpu')!;
const cpuData = cpu.numDataIds();
await model.fit(xs, ys, { epochs: 3, verbose: 0 }); // the fallback's copies must not pile up
const growth = tf.memory().numTensors - afterFirst + (cpu.numDataIds() - cpuData);
const einsum = tf.einsum('ij,jk->ik', tf.ones([2, 3]), tf.ones([3, 2]));
const intMatMul = tf.matMul(tf.tensor2d([[1, 2], [3, 4]], [2, 2], 'int32'), tf.tensor2d([[0, 1], [1, 0]], [2, 2], 'int32'));
console.log('RESULT ' + JSON.stringify({ backend: tf.getBackend(), losses: history.history.loss, growth, einsum: Array.from(einsum.dataSync()), intMatMul: [intMatMul.dtype, ...intMatMul.dataSync()] }));
`;

const COMPLEX = `import { selectBackend, tf } from 'tfjs-callback-debugger/runtime';
await selectBackend();
tf.complex(tf.ones([2]), tf.zeros([2]));
`;

describe('kernels the backend lacks', { timeout: 120_000 }, () => {
  test('wasm: a conv net trains (Conv2DBackpropFilter on cpu), Einsum and int32 BatchMatMul work; each fallback said once', () => {
    const file = writeFile(dir, 'train.ts', TRAIN);
    const run = runCli(['run', file, '--backend', 'wasm']);
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    const line = run.stdout.split('\n').find((l) => l.startsWith('RESULT '));
    assert.ok(line, run.stdout);
    const result = JSON.parse(line.slice(7)) as { backend: string; losses: number[]; growth: number; einsum: number[]; intMatMul: unknown[] };
    assert.equal(result.backend, 'wasm');
    assert.equal(result.losses.length, 3);
    assert.ok(result.losses.every(Number.isFinite), `losses ${result.losses}`);
    assert.equal(result.growth, 0, 'training again holds no more tensors, on wasm or on cpu: the copies are freed');
    assert.deepEqual(result.einsum, [3, 3, 3, 3]);
    assert.deepEqual(result.intMatMul, ['int32', 2, 1, 4, 3]);
    const said = run.stderr.split('\n').filter((l) => l.startsWith('[tfjs-callbacks] wasm'));
    assert.deepEqual(
      said.map((l) => l.replace(/:.*/, '')),
      [
        "[tfjs-callbacks] wasm has no kernel 'Conv2DBackpropFilter'",
        "[tfjs-callbacks] wasm has no kernel 'Einsum'",
        "[tfjs-callbacks] wasm's kernel 'BatchMatMul' refused its inputs (\"BatchMatMul for non non-float32 tensors not yet supported.\")",
      ],
    );
    assert.match(
      said[0]!,
      /it runs on cpu, its tensors copied over and back \(slower\)\. The cpu backend avoids the copies: TFJS_BACKEND=cpu, --backend cpu, or the tfjsCallbacks\.backend setting\./,
    );
    // The run's one backend line is short; the kernels wasm lacks are in its details.
    assert.match(run.stdout, /^\[tfjs-callbacks\] backend: wasm \((?:requested|TFJS_BACKEND): WebAssembly; why: `tfjs-callbacks backend`\)$/m);
    assert.match(runCli(['backend', '--backend', 'wasm']).stdout, /^backend: wasm \(requested: .*the \d+ kernels it lacks \(Conv2DBackpropFilter, /m);
    assert.doesNotMatch(`${run.stdout}${run.stderr}`, /not registered for backend|Hi, looks like/);
  });

  test('wasm: complex numbers fail naming the backend, the kernel and the fix, not a bare "not registered"', () => {
    const file = writeFile(dir, 'complex.ts', COMPLEX);
    const run = runCli(['run', file, '--backend', 'wasm']);
    assert.equal(run.status, 1);
    assert.match(
      run.stdout,
      /✗ .*complex\.ts failed: Error: TF\.js's wasm backend has no kernel 'Complex' \(complex numbers, which it cannot hold\), and this program needs it\. Run it on the cpu backend \(TFJS_BACKEND=cpu, --backend cpu, or the tfjsCallbacks\.backend setting\)/,
    );
    assert.doesNotMatch(run.stdout, /not registered for backend/);
  });

  test('cpu runs the same program without any fallback line', () => {
    const file = writeFile(dir, 'train-cpu.ts', TRAIN);
    const run = runCli(['run', file, '--backend', 'cpu']);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(
      run.stderr.split('\n').filter((l) => l.startsWith('[tfjs-callbacks] cpu') || l.includes('runs on cpu')),
      [],
    );
  });
});
