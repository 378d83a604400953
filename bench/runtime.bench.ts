/**
 * Runtime benchmarks (issue 2): wrapper overhead against the same computation inline, a model with
 * a callback node against the same graph with that step as a tf op, and the debug hooks' cost.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  addCallbackObserver,
  loadCallbackModel,
  numpyFunction,
  NdArray,
  pyFunction,
  selectBackend,
  tf,
  parseTout,
  type BackendName,
} from '../runtime/index.js';
import { identify } from '../runtime/invocation/callbacks.js';
import { invokeCallback, invokeUnobserved, type CallbackSpec } from '../runtime/invocation/invoke.js';
import { formatComparison, measure, measurePair, type Comparison } from './harness.js';
import { summarizeTensor } from '../runtime/summary.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const MODELS = path.join(here, '..', 'examples', 'models');
const ONE_M = 1 << 20;

const addOneTf = (x: tf.Tensor) => tf.add(x, 1);
const addOneArray = (a: NdArray) => {
  const src = a.data as Float32Array;
  const out = new Float32Array(src.length);
  for (let i = 0; i < src.length; i++) out[i] = src[i]! + 1;
  return out;
};

function compare(name: string, baselineName: string, baseline: () => void, measured: () => void, calls: number, target?: Comparison['target']): Comparison {
  const [b, m] = measurePair(baseline, measured, calls);
  return { name, baselineName, baseline: b, measured: m, ...(target ? { target } : {}) };
}

/** The backends that load here: tensorflow when tfjs-node is installed or setup-native built it. */
async function loadingBackends(print: (line: string) => void): Promise<BackendName[]> {
  const found: BackendName[] = [];
  for (const backend of ['tensorflow', 'wasm', 'cpu'] as const) {
    try {
      await selectBackend({ backend, quiet: true });
      found.push(backend);
    } catch (err) {
      print(`(backend ${backend} not measured: ${(err as Error).message.split('. ')[0]})`);
    }
  }
  return found;
}

export async function runtimeBenchmarks(print: (line: string) => void): Promise<void> {
  const backends = await loadingBackends(print);
  await matMulAcrossBackends(backends, print);
  residentMemory(backends, print);
  for (const backend of backends) {
    await selectBackend({ backend, quiet: true });
    print(`\n— backend ${backend} —`);
    for (const [label, size, calls] of [
      ['1 element', 1, 4000],
      ['1M elements', ONE_M, backend === 'cpu' ? 10 : 20],
    ] as const) {
      const x = tf.randomUniform([size], 0, 1, 'float32', 3);
      print(
        formatComparison(
          compare(
            `pyFunction(x + 1), ${label}`,
            'inline tidy(add)',
            () => tf.dispose(tf.tidy(() => addOneTf(x))),
            () => tf.dispose(pyFunction(addOneTf, [x], 'float32')),
            calls,
            size === 1 && backend === 'wasm'
              ? { kind: 'overheadUs', max: 5 }
              : size === 1 && backend === 'tensorflow'
                ? { kind: 'overheadUs', max: 3 }
                : undefined,
          ),
        ),
      );
      print(
        formatComparison(
          compare(
            `numpyFunction(x + 1), ${label}`,
            'inline dataSync+loop+tensor',
            () => tf.dispose(tf.tensor(addOneArray(new NdArray(x.dataSync() as Float32Array, x.shape, 'float32')), x.shape)),
            () => tf.dispose(numpyFunction(addOneArray, [x], 'float32')),
            calls,
            size === ONE_M && backend === 'cpu' ? { kind: 'ratio', max: 1.2 } : undefined,
          ),
        ),
      );
      x.dispose();
    }
    // The wrapper alone: a callback that runs no op (its input comes back, cloned as TensorFlow's
    // identity would), so the backend's own op time and its scheduling noise are out of it.
    const x = tf.randomUniform([1], 0, 1, 'float32', 4);
    print(
      formatComparison(
        compare(
          'pyFunction(identity), 1 element: the wrapper alone',
          'inline tidy(clone)',
          () => tf.dispose(tf.tidy(() => tf.clone(x))),
          () => tf.dispose(pyFunction((t: tf.Tensor) => t, [x], 'float32')),
          4000,
          { kind: 'overheadUs', max: 3 },
        ),
      ),
    );
    // Around or beside: both arms run one add and one wrapper call; only whether the wrapper wraps
    // the op differs. On tensorflow the 1-element add row's extra (+6 to +14 µs here) shows up in
    // both arms: the native op runs slower next to the wrapper's JS, not because of what it does.
    const one = tf.scalar(1);
    print(
      formatComparison(
        compare(
          'pyFunction(x + 1) then clone, 1 element',
          'x + 1 then pyFunction(identity)',
          () => {
            tf.dispose(tf.tidy(() => tf.add(x, one)));
            tf.dispose(pyFunction((t: tf.Tensor) => t, [x], 'float32'));
          },
          () => {
            tf.dispose(pyFunction((t: tf.Tensor) => tf.add(t, one), [x], 'float32'));
            tf.dispose(tf.tidy(() => tf.clone(x)));
          },
          4000,
        ),
      ),
    );
    tf.dispose([x, one]);
    await modelBenchmark(print);
    hooksBenchmark(print);
    summaryBenchmark(print);
  }
}

/** matMul 512x512 on each backend against wasm's in the same run (one op: 2*512^3 flops). */
async function matMulAcrossBackends(backends: readonly BackendName[], print: (line: string) => void): Promise<void> {
  print('\n— matMul 512x512, per backend —');
  const times = new Map<BackendName, number>();
  for (const backend of backends) {
    await selectBackend({ backend, quiet: true });
    const a = tf.randomUniform([512, 512], -1, 1, 'float32', 1);
    const b = tf.randomUniform([512, 512], -1, 1, 'float32', 2);
    const us = measure(() => tf.matMul(a, b).dispose(), backend === 'cpu' ? 2 : 20, 5).usPerCall;
    tf.dispose([a, b]);
    times.set(backend, us);
  }
  const wasm = times.get('wasm');
  for (const [backend, us] of times) {
    print(`  ${backend.padEnd(10)} ${(us / 1000).toFixed(2).padStart(8)} ms${wasm ? `  ${(wasm / us).toFixed(2)}x wasm's speed` : ''}`);
  }
}

/** Resident memory of a process that selected each backend and ran one op (a child per backend). */
function residentMemory(backends: readonly BackendName[], print: (line: string) => void): void {
  print('\n— resident memory after one op, per backend (a fresh process each) —');
  const entry = path.join(here, '..', 'runtime', 'index.ts');
  const script = `const rt = await import(${JSON.stringify(pathToFileURL(entry).href)}); await rt.selectBackend({ backend: process.argv[1], quiet: true }); rt.tf.add(rt.tf.ones([4]), 1).dataSync(); console.log(process.memoryUsage().rss);`;
  for (const backend of backends) {
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, backend], { encoding: 'utf8' });
    const rss = Number(run.stdout.trim().split('\n').at(-1));
    print(
      `  ${backend.padEnd(10)} ${Number.isFinite(rss) ? `${(rss / 2 ** 20).toFixed(0).padStart(5)} MiB` : `failed: ${run.stderr.trim().split('\n').at(-1)}`}`,
    );
  }
}

async function modelBenchmark(print: (line: string) => void): Promise<void> {
  const withOps = await loadCallbackModel(path.join(MODELS, 'tanh-ops', 'model.json'));
  const withCallback = await loadCallbackModel(path.join(MODELS, 'tanh-callback', 'model.json'), {
    callbacks: { activation: (h: tf.Tensor) => tf.tanh(h) },
  });
  const x = tf.randomNormal([256, 16], 0, 1, 'float32', 5);
  print(
    formatComparison(
      compare(
        'model: EagerPyFunc tanh callback node, batch 256x16',
        'same graph with a Tanh op',
        () => tf.dispose(withOps.execute(x)),
        () => tf.dispose(withCallback.execute(x)),
        200,
      ),
    ),
  );
  x.dispose();
  withOps.dispose();
  withCallback.dispose();
}

/**
 * The hooks' cost. Off: invokeCallback with no observer against invokeUnobserved, the same
 * invocation with the hook checks left out. On: a no-op observer attached, which makes the runtime
 * summarise inputs and outputs and find the call site.
 */
function hooksBenchmark(print: (line: string) => void): void {
  for (const size of [1, 1024]) {
    const x = tf.randomUniform([size], 0, 1, 'float32', 9);
    const spec: CallbackSpec = {
      identity: identify(addOneArray, 'numpy_function', true, 'bench_add_one'),
      func: addOneArray,
      tout: parseTout('float32', 'bench_add_one'),
      op: 'PyFunc',
    };
    const unobserved = () => tf.dispose(invokeUnobserved(spec, [x]));
    const hooked = () => tf.dispose(invokeCallback(spec, [x]));
    print(
      formatComparison(
        compare(`observer off: numpy callback, ${size} element${size > 1 ? 's' : ''}`, 'same without hook checks', unobserved, hooked, 4000, {
          kind: 'overheadPercent',
          max: 2,
        }),
      ),
    );
    const detachedRun = hooked;
    let detach = () => {};
    const on = compare(
      `observer on: numpy callback, ${size} element${size > 1 ? 's' : ''}`,
      'observer off',
      detachedRun,
      () => {
        detach = addCallbackObserver({ onCallbackEnd: () => {} });
        hooked();
        detach();
      },
      2000,
    );
    print(formatComparison(on));
    x.dispose();
  }
}

/**
 * A tensor summary's cost (issue 11): above 2^20 elements it is taken from a strided sample of
 * 2^20, so the sampled summary of 50M elements should cost about the exact one of 2^20 (up to 3x:
 * each strided read is a cache miss, the exact one reads 4 MB in a row), and 50M no more than 4x
 * 12.5M (linear at worst; about constant when the sample is read in place, as on cpu and wasm).
 */
function summaryBenchmark(print: (line: string) => void): void {
  const exact = tf.randomUniform([ONE_M], -1, 1, 'float32', 11);
  const quarter = tf.randomUniform([12_500_000], -1, 1, 'float32', 12);
  const full = tf.randomUniform([50_000_000], -1, 1, 'float32', 13);
  print(
    formatComparison(
      compare(
        'summary: sampled, 50M elements',
        'exact, 2^20 elements',
        () => summarizeTensor(exact),
        () => summarizeTensor(full),
        3,
        { kind: 'ratio', max: 3 },
      ),
    ),
  );
  print(
    formatComparison(
      compare(
        'summary: sampled, 50M elements',
        'sampled, 12.5M elements',
        () => summarizeTensor(quarter),
        () => summarizeTensor(full),
        3,
        { kind: 'ratio', max: 4 },
      ),
    ),
  );
  tf.dispose([exact, quarter, full]);
}
