/**
 * tfFunction: a traced graph's replay against the same function run eagerly (in a tf.tidy), on
 * 50 kernels of [4,4] and [64,64] tensors, per backend; and the first call (the trace) against eager.
 * Run alone: `npx tsx bench/trace.bench.ts`.
 */
import { selectBackend, tf, tfFunction, type Tensor } from '../runtime/index.js';
import { formatComparison, measurePair } from './harness.js';

/** 10 × (Sinh, Multiply, Add, Tanh, Square): fifty kernels, elementwise. */
function fiftyKernels(a: Tensor, b: Tensor): (x: Tensor) => Tensor {
  return (x) => {
    let y = x;
    for (let i = 0; i < 10; i++) y = tf.square(tf.tanh(tf.add(tf.mul(tf.sinh(y), a), b)));
    return y;
  };
}

export async function traceBenchmarks(print: (line: string) => void): Promise<void> {
  for (const backend of ['wasm', 'cpu'] as const) {
    await selectBackend({ backend, quiet: true });
    print(`\n— tfFunction on ${backend} —`);
    const a = tf.scalar(0.5);
    const b = tf.scalar(0.1);
    const body = fiftyKernels(a, b);
    for (const size of [4, 64]) {
      const x = tf.randomUniform([size, size], -1, 1, 'float32', 3);
      const traced = tfFunction(body, { name: `fifty_${size}` });
      tf.dispose(traced(x));
      const [eager, replayed] = measurePair(
        () => tf.dispose(tf.tidy(() => body(x))),
        () => tf.dispose(traced(x)),
        size === 4 ? 400 : 50,
      );
      print(formatComparison({ name: `replay, 50 kernels [${size},${size}]`, baselineName: 'eager', baseline: eager, measured: replayed }));
      const [eagerAgain, retraced] = measurePair(
        () => tf.dispose(tf.tidy(() => body(x))),
        () => {
          const fresh = tfFunction(body);
          tf.dispose(fresh(x));
          fresh.dispose();
        },
        size === 4 ? 100 : 20,
      );
      print(formatComparison({ name: `first call (trace), 50 kernels [${size},${size}]`, baselineName: 'eager', baseline: eagerAgain, measured: retraced }));
      traced.dispose();
      x.dispose();
    }
    tf.dispose([a, b]);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await traceBenchmarks((line) => console.log(line));
