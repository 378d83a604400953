/**
 * Backend choice: native TensorFlow (tfjs-node, CPU or GPU) when it loads, else WebAssembly (the
 * kernels it lacks served by cpu: runtime/kernel-fallback.ts), else the pure-JS cpu backend. Forced by an option or TFJS_BACKEND. The choice and its reason are
 * reported once, in place of tfjs's own banner.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BACKEND_CHOICES, BACKEND_NAMES, parseChoice, type BackendChoice, type BackendName } from './backend-choice.js';
import { coverMissingKernels } from './kernel-fallback.js';
import { packageDir, readRecord } from './native/cache.js';
import { installedNativeCopies, NATIVE_PACKAGES, setupNativeBuild, withoutBinding } from './native/installed.js';
import { SERVING_NATIVE_KEY } from './loader/one-engine.js';
import { backendCopyProblem, backendPackageProblem, installedPackage, packageAt } from './tfjs-version.js';
import { requireBuiltNative } from './native/load.js';
import { tf } from './tf.js';
import { BACKEND_STATE_KEY, type BackendState } from './backend-state.js';

export { BACKEND_CHOICES, parseChoice, type BackendChoice, type BackendName };

export interface BackendReport {
  readonly backend: BackendName;
  readonly requested: BackendChoice;
  /** Where the request came from. */
  readonly source: 'option' | 'TFJS_BACKEND' | 'default';
  /** Why this backend, in full (`tfjs-callbacks backend` prints it). */
  readonly reason: string;
  /** Its first words (`auto: WebAssembly`), for the one short line every run opens with; the reason when absent. */
  readonly summary?: string;
  /** Backends tried before this one and why each was not used. */
  readonly skipped: readonly { readonly backend: BackendName; readonly why: string }[];
}

export interface SelectBackendOptions {
  readonly backend?: BackendChoice;
  /** Do not print the one-line report. */
  readonly quiet?: boolean;
  /** Where to look for the user's tfjs-node first (default: the working directory). */
  readonly projectDir?: string;
}

// Shared by every copy of the runtime in the process, so the report is printed once.
const holder = globalThis as unknown as Record<symbol, BackendState<BackendReport> | undefined>;
const state = (holder[BACKEND_STATE_KEY] ??= { report: undefined, printed: false });

/** The report of the last selection, if one was made. */
export function currentBackend(): BackendReport | undefined {
  return state.report;
}

export async function selectBackend(options: SelectBackendOptions = {}): Promise<BackendReport> {
  const fromEnv = process.env.TFJS_BACKEND;
  const requested = options.backend ?? (fromEnv ? parseChoice(fromEnv, 'TFJS_BACKEND') : 'auto');
  const source = options.backend ? 'option' : fromEnv ? 'TFJS_BACKEND' : 'default';
  if (state.report && state.report.requested === requested && tf.getBackend() === state.report.backend) return state.report;
  const report = requested === 'auto' ? await selectAuto(options) : await selectForced(requested, source, options);
  muteCpuGreeting();
  state.report = { ...report, requested, source };
  if (!options.quiet) announceBackend(state.report);
  return state.report;
}

/**
 * The line a process printed, for the processes it starts (they inherit it): a program in the
 * Debug Terminal and each Node program it starts select a backend before their first line.
 */
export const ANNOUNCED_BACKEND_ENV = 'TFJS_CALLBACKS_BACKEND_ANNOUNCED';

/**
 * Prints the report's line once per process, whoever asks first: the CLI (on stdout, before the
 * program's output), the debugger's launch or Debug Terminal, or a program's selectBackend() (on
 * stderr). Once per command: a process whose parent printed the same line says nothing.
 */
export function announceBackend(report: BackendReport, write: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): void {
  if (state.printed) return;
  state.printed = true;
  const line = describeBackend(report);
  if (process.env[ANNOUNCED_BACKEND_ENV] === line) return;
  process.env[ANNOUNCED_BACKEND_ENV] = line;
  write(line);
}

/** Where the whole report is, one command away from the short line. */
export const BACKEND_DETAILS_COMMAND = 'tfjs-callbacks backend';

/**
 * The one short line a run opens with (issue 43: the whole report was 385–702 characters):
 * `[tfjs-callbacks] backend: wasm (auto: WebAssembly; why: \`tfjs-callbacks backend\`)`, the
 * pointer only where there is more to say (backendDetails).
 */
export function describeBackend(report: BackendReport): string {
  const summary = report.summary ?? report.reason;
  const more = report.skipped.length > 0 || summary !== report.reason;
  return `[tfjs-callbacks] backend: ${report.backend} (${summary}${more ? `; why: \`${BACKEND_DETAILS_COMMAND}\`` : ''})`;
}

/** The whole report, a line each: the backend and why, then each backend tried before it and why it was not used. */
export function backendDetails(report: BackendReport): string[] {
  return [`backend: ${report.backend} (${report.reason})`, ...report.skipped.map((s) => `skipped ${s.backend}: ${s.why}`)];
}

type Attempt = { ok: true; reason: string; summary: string } | { ok: false; why: string };

async function selectAuto(options: SelectBackendOptions): Promise<Omit<BackendReport, 'requested' | 'source'>> {
  const skipped: { backend: BackendName; why: string }[] = [];
  for (const backend of BACKEND_NAMES) {
    const attempt = await activate(backend, options);
    if (attempt.ok) return { backend, reason: `auto: ${attempt.reason}`, summary: `auto: ${attempt.summary}`, skipped };
    skipped.push({ backend, why: attempt.why });
  }
  throw new Error(`No TensorFlow.js backend could start: ${skipped.map((s) => `${s.backend}: ${s.why}`).join('; ')}`);
}

async function selectForced(backend: BackendName, source: string, options: SelectBackendOptions): Promise<Omit<BackendReport, 'requested' | 'source'>> {
  const attempt = await activate(backend, options);
  const label = source === 'TFJS_BACKEND' ? 'TFJS_BACKEND' : 'requested';
  if (attempt.ok) return { backend, reason: `${label}: ${attempt.reason}`, summary: `${label}: ${attempt.summary}`, skipped: [] };
  const fix =
    backend === 'tensorflow'
      ? ' Build it from a TensorFlow you have with `tfjs-callbacks setup-native` (palette: "TF.js Callbacks: Set Up Native Backend"), or `npm install @tensorflow/tfjs-node` (its install downloads libtensorflow; behind a firewall set TFJS_NODE_CDN_STORAGE to a mirror). Or choose wasm or cpu.'
      : ' Choose another backend (auto, wasm, cpu).';
  throw new Error(`Backend '${backend}' was requested${source === 'TFJS_BACKEND' ? ' by TFJS_BACKEND' : ''} but cannot start: ${attempt.why}.${fix}`);
}

async function activate(backend: BackendName, options: SelectBackendOptions): Promise<Attempt> {
  // The loader names the program's project; a program's own call, the working directory.
  const projectDir = options.projectDir ?? process.env.TFJS_CALLBACKS_PROJECT_DIR ?? process.cwd();
  try {
    if (backend === 'tensorflow') return await activateNative(projectDir);
    if (backend === 'wasm') return await activateWasm(projectDir);
    return await activateCpu();
  } catch (err) {
    return { ok: false, why: err instanceof Error ? err.message.split('\n')[0]! : String(err) };
  }
}

/**
 * tfjs-node registers the 'tensorflow' backend when required. Tried in order: the project's, the
 * runtime's, then the one `tfjs-callbacks setup-native` built (runtime/native). A copy installed
 * without its binding is named and never loaded; a copy that fails to load is named with its whole
 * message, and the kernels it registered are taken back before the next is tried, so that two
 * copies never register into one engine.
 */
async function activateNative(projectDir: string): Promise<Attempt> {
  // TensorFlow's INFO lines ("This TensorFlow binary is optimized…", oneDNN) would open every
  // run's output; warnings and errors still show. TF_CPP_MIN_LOG_LEVEL=0 brings them back.
  process.env.TF_CPP_MIN_LOG_LEVEL ??= '1';
  const problems: string[] = [];
  const loaded = async (pkg: string, where: string, dir: string): Promise<Attempt> => {
    if (!(await tf.setBackend('tensorflow'))) return { ok: false, why: `${pkg} from ${where} loaded but its backend did not initialize` };
    recordServingNative(dir);
    quietProgressLogger(dir, projectDir);
    const failed = problems.length ? `; ${problems.join('; ')}` : '';
    const native = `native TensorFlow from ${pkg}${pkg.endsWith('-gpu') ? ' (GPU build: CUDA when present)' : ' (CPU)'}`;
    const shortWhere = where.startsWith(SETUP_NATIVE_BUILD) ? SETUP_NATIVE_BUILD : where;
    return {
      ok: true,
      reason: `${native}${where === 'the project' ? '' : ` in ${where}`}${failed}`,
      summary: `${native}${where === 'the project' ? '' : ` in ${shortWhere}`}`,
    };
  };
  const attempt = (where: string, load: () => void): boolean => {
    try {
      load();
      return true;
    } catch (err) {
      problems.push(`${where} failed to load: ${oneLine(err)}`);
      takeBackNativeKernels();
      return false;
    }
  };
  for (const copy of installedNativeCopies(projectDir, fileURLToPath(import.meta.url))) {
    // A package.json or binding that is a FIFO, a device or huge: loading it would hang or fill memory.
    if (copy.refused) {
      problems.push(copy.refused);
      continue;
    }
    // A tfjs-node of another TF.js version than the engine's registers kernels it lacks.
    const otherVersion = backendCopyProblem(packageAt(copy.dir), tf.version_core, { projectDir });
    if (otherVersion) {
      problems.push(otherVersion);
      continue;
    }
    if (!copy.hasBinding) {
      problems.push(withoutBinding(copy));
      continue;
    }
    if (attempt(`${copy.pkg} in ${copy.where}`, () => createRequire(path.join(copy.dir, 'noop.js'))(copy.dir))) return loaded(copy.pkg, copy.where, copy.dir);
  }
  const build = setupNativeBuild(tfjsVersion());
  if (build) {
    const record = readRecord(build)!;
    const where = `${SETUP_NATIVE_BUILD} (TensorFlow ${record.tensorflow.version}, ${build})`;
    if (attempt(where, () => requireBuiltNative(build, createRequire(import.meta.url).resolve('@tensorflow/tfjs')))) {
      return loaded('@tensorflow/tfjs-node', where, packageDir(build));
    }
    problems[problems.length - 1] += ': run `tfjs-callbacks setup-native` again';
  }
  return {
    ok: false,
    why: problems.length ? problems.join('; ') : '@tensorflow/tfjs-node is not installed (`tfjs-callbacks setup-native` builds it from a TensorFlow you have)',
  };
}

const SETUP_NATIVE_BUILD = "setup-native's build";

/** An error's whole message on one line (a loader's message spans lines; none of it is dropped). */
function oneLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err))
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ');
}

/**
 * tfjs-node registers a progress logger for model.fit() at its default verbosity ("Epoch 1 / 2", a
 * bar, "57ms 2850us/step - loss=…"), which a program of a project without tfjs-node never prints
 * when run plainly: where the backend loads one the project does not have (setup-native's, the
 * runtime's), its output goes (through `progressBarHelper`, the hook tfjs-node keeps for its tests),
 * so that the program prints what it prints without us.
 */
function quietProgressLogger(nativeDir: string, projectDir: string): void {
  if (NATIVE_PACKAGES.some((name) => installedPackage(name, projectDir))) return;
  try {
    const callbacks = createRequire(path.join(nativeDir, 'noop.js'))('./dist/callbacks.js') as { progressBarHelper?: Record<string, unknown> };
    const helper = callbacks.progressBarHelper;
    if (!helper || typeof helper.log !== 'function') return; // another layout: its logger prints as it would
    helper.log = () => {};
    helper.ProgressBar = SilentProgressBar;
  } catch {
    // A tfjs-node without dist/callbacks.js: its logger prints as it would.
  }
}

/** The `progress` package's bar, as ProgbarLogger uses it, drawing nothing. */
class SilentProgressBar {
  tick(): void {}
  terminate(): void {}
}

/** Unregisters what a tfjs-node that failed to load registered (it registers its kernels before it looks for its binding). */
function takeBackNativeKernels(): void {
  for (const kernel of tf.getKernelsForBackend('tensorflow')) tf.unregisterKernel(kernel.kernelName, 'tensorflow');
  if (tf.findBackendFactory('tensorflow')) tf.removeBackend('tensorflow');
}

/** Where the tfjs-node that serves the 'tensorflow' backend is: a program's own require of tfjs-node gets it (runtime/loader). */
function recordServingNative(dir: string): void {
  (globalThis as Record<symbol, unknown>)[SERVING_NATIVE_KEY] = dir;
}

/** The engine's TensorFlow.js version: the tfjs-node to build and load is the same one. */
export function tfjsVersion(): string {
  return tf.version.tfjs;
}

async function activateWasm(projectDir: string): Promise<Attempt> {
  // The wasm backend this engine would load (the project's, else the one shipped with the runtime)
  // must be built for its TF.js version: another registers kernels this engine lacks.
  const mismatch = backendPackageProblem('@tensorflow/tfjs-backend-wasm', tf.version_core, {
    projectDir,
    runtimeDir: path.dirname(fileURLToPath(import.meta.url)),
  });
  if (mismatch) return { ok: false, why: mismatch };
  const started = await withoutEmscriptenHandlers(async () => {
    await import('@tensorflow/tfjs-backend-wasm');
    return tf.setBackend('wasm');
  });
  if (!started) return { ok: false, why: 'the WebAssembly module did not initialize' };
  const { servedByCpu } = coverMissingKernels('wasm');
  const cover = servedByCpu.length > 0 ? `; the ${servedByCpu.length} kernels it lacks (${servedByCpu.slice(0, 3).join(', ')}, …) run on cpu` : '';
  return { ok: true, reason: `WebAssembly with SIMD, 1 thread (Node has no wasm threads here)${cover}`, summary: 'WebAssembly' };
}

/**
 * Runs `start` and takes back the process handlers it added: the wasm backend's Emscripten module
 * adds an 'uncaughtException' handler that rethrows (Node then exits with code 7 and prints a line
 * of the module's minified source instead of the error) and an 'unhandledRejection' one that
 * throws. A program's errors must end it as they would without the runtime: code 1, its own error.
 */
async function withoutEmscriptenHandlers<T>(start: () => Promise<T>): Promise<T> {
  const emitter: NodeJS.EventEmitter = process;
  const events = ['uncaughtException', 'unhandledRejection'];
  const before = new Map(events.map((event) => [event, new Set(emitter.listeners(event))]));
  try {
    return await start();
  } finally {
    for (const event of events) {
      for (const listener of emitter.listeners(event)) {
        if (!before.get(event)!.has(listener)) emitter.removeListener(event, listener as (...args: unknown[]) => void);
      }
    }
  }
}

async function activateCpu(): Promise<Attempt> {
  if (!(await tf.setBackend('cpu'))) return { ok: false, why: 'the cpu backend did not initialize' };
  return { ok: true, reason: 'pure JavaScript', summary: 'pure JavaScript' };
}

/**
 * TF.js's cpu backend greets Node users as it stores its first tensor ("Hi, looks like you are
 * running TensorFlow.js in Node.js. To speed things up dramatically, install our node backend…":
 * tfjs-backend-cpu's MathBackendCPU.write, while its `firstUse`); our line replaces that. Made here
 * whatever the backend, so that a program that switches to cpu itself later (`tf.setBackend('cpu')`,
 * which takes the engine's instance) is not greeted either.
 */
function muteCpuGreeting(): void {
  const cpu = tf.findBackend('cpu') as unknown as { firstUse?: boolean } | null;
  if (cpu) cpu.firstUse = false;
}
