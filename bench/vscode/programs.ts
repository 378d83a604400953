/**
 * The bench's own programs, written into a temp workspace (an ES-module project, `type: module`,
 * with no node_modules): both debuggers and the plain runs start the very same files with the same
 * loaders, tsx and the runtime's register (the installed .vsix's copies), so
 * `tfjs-callback-debugger/runtime` and tfjs resolve identically everywhere. The backend is cpu
 * (TFJS_BACKEND) for all.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { makeFreshProject, REVIEWS_JS } from '../../test/fixtures/lsp/fresh-project.js';

/** A numpyFunction callback whose input has 2^20 float32 elements, called in a loop. */
export const INTERACTIVE = `import { appendFileSync } from 'node:fs';
import { numpyFunction, selectBackend, tf, type NdArray } from 'tfjs-callback-debugger/runtime';

await selectBackend({ quiet: true });

let reached: number | undefined;

function inspect_input(x: NdArray): NdArray {
  reached ??= performance.now();
  const first = x.data[0] as number; // @break
  const last = x.data[x.data.length - 1] as number; // @next
  if (first > last) console.log('never');
  return x;
}

const input = tf.range(0, 1 << 20, 1, 'float32');
for (let i = 0; i < 5; i++) {
  const y = numpyFunction(inspect_input, [input], 'float32');
  y.dispose();
}
// Run plainly, the bench reads how long the program took to reach its callback (process start → there).
if (process.env.BENCH_REACH_OUT) appendFileSync(process.env.BENCH_REACH_OUT, JSON.stringify({ reachMs: reached }) + '\\n');
console.log('done');
`;

/** One numpyFunction call whose input has 10^7 float32 elements: expanded to its first values. */
export const BIG_INPUT = `import { numpyFunction, selectBackend, tf, type NdArray } from 'tfjs-callback-debugger/runtime';

await selectBackend({ quiet: true });

function inspect_input(x: NdArray): NdArray {
  const first = x.data[0] as number; // @break
  if (first < 0) console.log('never');
  return x;
}

const input = tf.range(0, 10_000_000, 1, 'float32');
numpyFunction(inspect_input, [input], 'float32').dispose();
console.log('done');
`;

/** 10,000 numpyFunction calls of ~20 µs each on cpu; writes its loop time beside it. */
export const BUSY = `import { appendFileSync } from 'node:fs';
import { numpyFunction, selectBackend, tf, type NdArray } from 'tfjs-callback-debugger/runtime';

await selectBackend({ quiet: true });

function never_called(total: number): void {
  console.log('never called', total); // @unhit-cold
}

function smooth(x: NdArray): Float32Array {
  const out = Float32Array.from(x.data as Float32Array, (v) => v * 0.5 + 1);
  if (out[0]! < -1) {
    console.log('never taken'); // @unhit-hot
  }
  return out;
}

const input = tf.range(0, 256, 1, 'float32');
let total = 0;
const started = performance.now();
for (let i = 0; i < 10_000; i++) {
  const y = numpyFunction(smooth, [input], 'float32');
  total += y.dataSync()[255]!;
  y.dispose();
}
const loopMs = performance.now() - started;
if (total < 0) never_called(total);
appendFileSync(new URL('./busy-out.jsonl', import.meta.url), JSON.stringify({ loopMs, total, pid: process.pid }) + '\\n');
console.log('loop-ms', loopMs.toFixed(1));
`;

/**
 * A custom layer trained with model.fit (issue 26's steps): breakpoints in its call() and at the
 * end of a tf.tidy body; stepping from there leaves the program's code for TF.js.
 */
export const LAYER_STEPS = `import { selectBackend, tf } from 'tfjs-callback-debugger/runtime';

await selectBackend({ quiet: true });

class Gate extends tf.layers.Layer {
  kernel: any;
  static get className() {
    return 'Gate';
  }
  build(inputShape: number[]) {
    this.kernel = this.addWeight('kernel', [inputShape[inputShape.length - 1]!, 4], 'float32', tf.initializers.glorotUniform({ seed: 1 }));
  }
  computeOutputShape(inputShape: number[]) {
    return [inputShape[0]!, 4];
  }
  call(inputs: tf.Tensor | tf.Tensor[]): tf.Tensor {
    const x = Array.isArray(inputs) ? inputs[0]! : inputs; // @call-first
    const scores = tf.matMul(x, this.kernel.read()); // @call-matmul
    return tf.tidy(() => { // @call-tidy
      const weights = tf.sigmoid(scores);
      return tf.mul(scores, weights); // @tidy-last
    }); // @tidy-end
  }
}
tf.serialization.registerClass(Gate);

const xs = tf.randomNormal([64, 8], 0, 1, 'float32', 1);
const ys = tf.randomNormal([64, 1], 0, 1, 'float32', 2);
const model = tf.sequential({ layers: [new Gate({ inputShape: [8] }), tf.layers.dense({ units: 1 })] });
model.compile({ optimizer: 'adam', loss: 'meanSquaredError' });
await model.fit(xs, ys, { epochs: 20, batchSize: 2, verbose: 0, shuffle: false });
console.log('trained');
`;

/**
 * A long session (issue 26): STOPS callback invocations, each a stop at @stop with \`meta\` to look
 * at. After MARK and LATE_MARK stops and at the end it writes its heap after a full GC and its tensor
 * count to BENCH_SESSION_OUT.
 */
export const LONG_SESSION = `import { appendFileSync } from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import { numpyFunction, selectBackend, tf, type NdArray } from 'tfjs-callback-debugger/runtime';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
await selectBackend({ quiet: true });

const STOPS = Number(process.env.BENCH_STOPS ?? 2000);
const MARKS = new Set([Number(process.env.BENCH_MARK ?? 100), Number(process.env.BENCH_LATE_MARK ?? 500), STOPS]);
let calls = 0;

function inspect_step(x: NdArray): NdArray {
  calls++;
  const meta = { step: calls, history: Array.from({ length: 200 }, (_, i) => i * Number(x.data[1])) };
  return x.map((v) => v + meta.history.length); // @stop
}

const input = tf.tensor([1, 2, 3, 4], [2, 2], 'float32');
for (let i = 1; i <= STOPS; i++) {
  numpyFunction(inspect_step, [input], 'float32').dispose();
  if (MARKS.has(i)) {
    gc();
    const mark = { stops: i, heap: process.memoryUsage().heapUsed, tensors: tf.memory().numTensors };
    appendFileSync(process.env.BENCH_SESSION_OUT ?? 'session-out.jsonl', JSON.stringify(mark) + '\\n');
  }
}
`;

export function lineOf(source: string, marker: string): number {
  const index = source.split('\n').findIndex((l) => l.includes(marker));
  if (index < 0) throw new Error(`no ${marker} in the program`);
  return index + 1;
}

export const CONFIG_OURS = 'bench: ours';
export const CONFIG_JS = 'bench: js-debug';
/** js-debug with node_modules skipped too (its default skips Node's internals only). */
export const CONFIG_JS_SKIP = 'bench: js-debug, node_modules skipped';

export interface Programs {
  readonly interactive: string;
  /** The 10^7-element input's program. */
  readonly big: string;
  readonly busy: string;
  readonly busyOut: string;
  /** The custom layer trained with model.fit (LAYER_STEPS). */
  readonly layer: string;
  /** LONG_SESSION, and the file it writes its marks to. */
  readonly session: string;
  readonly sessionOut: string;
  /**
   * reviews/reviews.js: issue 27's CommonJS tf.data pipeline with a Tout mismatch, in a project of
   * its own with @tensorflow/tfjs installed and not this package (a user of the .vsix alone).
   */
  readonly reviews: string;
  /** node arguments before the program: tsx and the runtime's register, as file URLs. */
  readonly nodeArgs: readonly string[];
  readonly env: Record<string, string>;
}

/** Writes the workspace: package.json, the programs, the reviews project, and a launch.json with one configuration per debugger. */
export function writeWorkspace(workspace: string, extensionDir: string): Programs {
  mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  writeFileSync(path.join(workspace, 'package.json'), `${JSON.stringify({ name: 'bench-vscode', private: true, type: 'module' }, null, 2)}\n`);
  const interactive = path.join(workspace, 'interactive.ts');
  const busy = path.join(workspace, 'busy.ts');
  writeFileSync(interactive, INTERACTIVE);
  const big = path.join(workspace, 'big-input.ts');
  writeFileSync(big, BIG_INPUT);
  writeFileSync(busy, BUSY);
  const layer = path.join(workspace, 'layer-steps.ts');
  writeFileSync(layer, LAYER_STEPS);
  const session = path.join(workspace, 'long-session.ts');
  writeFileSync(session, LONG_SESSION);
  makeFreshProject(path.join(workspace, 'reviews'), { withRuntime: false });
  const reviews = path.join(workspace, 'reviews', 'reviews.js');
  writeFileSync(reviews, REVIEWS_JS);
  const nodeArgs = [
    '--import',
    pathToFileURL(path.join(extensionDir, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href,
    '--import',
    pathToFileURL(path.join(extensionDir, 'dist', 'runtime', 'loader', 'register.js')).href,
  ];
  const env = { TFJS_BACKEND: 'cpu', TFJS_CALLBACKS_PROJECT_DIR: workspace };
  const launch = {
    version: '0.2.0',
    configurations: [
      { type: 'tfjs-callbacks', request: 'launch', name: CONFIG_OURS, program: '${file}', cwd: '${workspaceFolder}', backend: 'cpu', env },
      {
        type: 'node',
        request: 'launch',
        name: CONFIG_JS,
        program: '${file}',
        cwd: '${workspaceFolder}',
        runtimeArgs: nodeArgs,
        env,
        console: 'internalConsole',
        skipFiles: ['<node_internals>/**'],
      },
      {
        type: 'node',
        request: 'launch',
        name: CONFIG_JS_SKIP,
        program: '${file}',
        cwd: '${workspaceFolder}',
        runtimeArgs: nodeArgs,
        env,
        console: 'internalConsole',
        skipFiles: ['<node_internals>/**', '**/node_modules/**'],
      },
    ],
  };
  writeFileSync(path.join(workspace, '.vscode', 'launch.json'), `${JSON.stringify(launch, null, 2)}\n`);
  return {
    interactive,
    big,
    busy,
    busyOut: path.join(workspace, 'busy-out.jsonl'),
    layer,
    session,
    sessionOut: path.join(workspace, 'session-out.jsonl'),
    reviews,
    nodeArgs,
    env,
  };
}
