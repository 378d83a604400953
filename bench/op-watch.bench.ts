/**
 * The op watch ("NaN/Inf in any op") on training runs, ratios in one run: `model.fit` of a 3-layer
 * MLP (64 batches) and of a small convnet (16 batches) on cpu and on tensorflow (where tfjs-node
 * loads: setup-native's build, as npm test sets it up), and the MLP on wasm, each plain, with
 * the watch on, and under TF.js's own DEBUG mode (its console lines silenced), rounds alternating so
 * drift hits all three alike. Also the watch turned on and off again against never on (nothing left
 * hooked). The finder's counterpart in the debugger and the CLI is this same watch.
 */
import { selectBackend, tf } from '../runtime/index.js';
import { addOpBirthObserver } from '../runtime/op-watch/op-watch.js';

type Print = (line: string) => void;
type Mode = 'plain' | 'watch' | 'debug';

interface Workload {
  readonly name: string;
  readonly backend: 'cpu' | 'wasm' | 'tensorflow';
  readonly model: () => tf.LayersModel;
  readonly x: () => tf.Tensor;
  readonly y: () => tf.Tensor;
  readonly batchSize: number;
}

const mlp = (): tf.LayersModel => {
  const model = tf.sequential({
    layers: [
      tf.layers.dense({ units: 64, inputShape: [32], activation: 'relu' }),
      tf.layers.dense({ units: 64, activation: 'relu' }),
      tf.layers.dense({ units: 1 }),
    ],
  });
  model.compile({ optimizer: tf.train.adam(1e-3), loss: 'meanSquaredError' });
  return model;
};

const convnet = (): tf.LayersModel => {
  const model = tf.sequential({
    layers: [
      tf.layers.conv2d({ inputShape: [16, 16, 1], filters: 8, kernelSize: 3, activation: 'relu' }),
      tf.layers.maxPooling2d({ poolSize: 2 }),
      tf.layers.flatten(),
      tf.layers.dense({ units: 10, activation: 'softmax' }),
    ],
  });
  model.compile({ optimizer: 'sgd', loss: 'categoricalCrossentropy' });
  return model;
};

const WORKLOADS: Workload[] = (['cpu', 'wasm', 'tensorflow'] as const).flatMap((backend) => [
  { name: 'MLP 32-64-64-1, 64 batches of 32', backend, model: mlp, x: () => tf.randomNormal([2048, 32]), y: () => tf.randomNormal([2048, 1]), batchSize: 32 },
  // wasm lacks Conv2DBackpropFilter (TF.js runs it on cpu): the convnet on cpu and on tensorflow only.
  ...(backend === 'wasm'
    ? []
    : [
        {
          name: 'convnet conv8-pool-dense10, 16 batches of 16',
          backend,
          model: convnet,
          x: () => tf.randomNormal([256, 16, 16, 1]),
          y: () => tf.oneHot(tf.randomUniform([256], 0, 10, 'int32'), 10),
          batchSize: 16,
        },
      ]),
]);

/** One fit in the given mode; DEBUG mode's profile lines and warnings go nowhere. */
async function fitOnce(w: Workload, model: tf.LayersModel, x: tf.Tensor, y: tf.Tensor, mode: Mode): Promise<number> {
  const stop = mode === 'watch' ? addOpBirthObserver({ onBirth: () => {} }) : undefined;
  const { log, warn } = console;
  if (mode === 'debug') {
    console.log = () => {};
    console.warn = () => {};
    tf.env().set('DEBUG', true);
  }
  const start = performance.now();
  try {
    await model.fit(x, y, { epochs: 1, batchSize: w.batchSize, verbose: 0, shuffle: false });
  } finally {
    tf.env().set('DEBUG', false);
    console.log = log;
    console.warn = warn;
    stop?.();
  }
  return performance.now() - start;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function opWatchBenchmarks(print: Print, rounds = 9): Promise<void> {
  print('\nop watch · NaN/Inf in any op, model.fit, the same model and data in every mode');
  for (const w of WORKLOADS) {
    try {
      await selectBackend({ backend: w.backend, quiet: true });
    } catch (err) {
      print(`  ${w.backend.padEnd(4)} ${w.name.padEnd(44)} not run: ${(err as Error).message.split('\n')[0]}`);
      continue;
    }
    const model = w.model();
    const x = w.x();
    const y = w.y();
    const times: Record<Mode, number[]> = { plain: [], watch: [], debug: [] };
    const order: Mode[] = ['plain', 'watch', 'debug'];
    for (const mode of order) await fitOnce(w, model, x, y, mode); // warm up
    for (let r = 0; r < rounds; r++) for (const mode of r % 2 === 0 ? order : [...order].reverse()) times[mode].push(await fitOnce(w, model, x, y, mode));
    const plain = median(times.plain);
    const watch = median(times.watch);
    const debug = median(times.debug);
    print(
      `  ${w.backend.padEnd(4)} ${w.name.padEnd(44)} plain ${plain.toFixed(0).padStart(5)} ms · watch ${(watch / plain).toFixed(2)}x · DEBUG mode ${(debug / plain).toFixed(2)}x · watch/DEBUG ${(watch / debug).toFixed(2)}x`,
    );
    tf.dispose([x, y]);
    model.dispose();
  }
  await offAfterOn(print, rounds);
}

/** A watch turned on and off again leaves nothing hooked: its runs against runs that never had one. */
async function offAfterOn(print: Print, rounds: number): Promise<void> {
  await selectBackend({ backend: 'cpu', quiet: true });
  const w = WORKLOADS[0]!;
  const model = w.model();
  const x = w.x();
  const y = w.y();
  const never: number[] = [];
  const after: number[] = [];
  await fitOnce(w, model, x, y, 'plain');
  for (let r = 0; r < rounds; r++) {
    // Alternating which goes first, so drift hits both alike.
    if (r % 2 === 0) never.push(await fitOnce(w, model, x, y, 'plain'));
    addOpBirthObserver({ onBirth: () => {} })();
    after.push(await fitOnce(w, model, x, y, 'plain'));
    if (r % 2 === 1) never.push(await fitOnce(w, model, x, y, 'plain'));
  }
  print(`  cpu  watch turned on, then off: ${(median(after) / median(never)).toFixed(2)}x the run that never had it (target ≤ 1.02x)`);
  tf.dispose([x, y]);
  model.dispose();
}
