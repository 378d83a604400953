/**
 * Backend choice: native TensorFlow (tfjs-node, CPU or GPU) when it loads, else WebAssembly (the
 * kernels it lacks served by cpu: runtime/kernel-fallback.ts), else the pure-JS cpu backend. Forced by an option or TFJS_BACKEND. The choice and its reason are
 * reported once, in place of tfjs's own banner.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { BACKEND_CHOICES, BACKEND_NAMES, parseChoice, type BackendChoice, type BackendName } from './backend-choice.js';
import { coverMissingKernels } from './kernel-fallback.js';
import { buildDir, hasBuild, nativeRoot, readRecord } from './native/cache.js';
import { requireBuiltNative } from './native/load.js';
import { tf } from './tf.js';

export { BACKEND_CHOICES, parseChoice, type BackendChoice, type BackendName };

export interface BackendReport {
  readonly backend: BackendName;
  readonly requested: BackendChoice;
  /** Where the request came from. */
  readonly source: 'option' | 'TFJS_BACKEND' | 'default';
  /** Why this backend: one line for people. */
  readonly reason: string;
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
const STATE_KEY = Symbol.for('tfjs-callback-debugger.runtime.backend');
const holder = globalThis as unknown as Record<symbol, { report: BackendReport | undefined; printed: boolean } | undefined>;
const state = (holder[STATE_KEY] ??= { report: undefined, printed: false });

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
  state.report = { ...report, requested, source };
  if (!options.quiet) announceBackend(state.report);
  return state.report;
}

/**
 * Prints the report's line once per process, whoever asks first: the CLI (on stdout, before the
 * program's output), the debugger's launch, or a program's selectBackend() (on stderr).
 */
export function announceBackend(report: BackendReport, write: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): void {
  if (state.printed) return;
  state.printed = true;
  write(describeBackend(report));
}

export function describeBackend(report: BackendReport): string {
  const skipped = report.skipped.map((s) => `${s.backend}: ${s.why}`).join('; ');
  return `[tfjs-callbacks] backend: ${report.backend} (${report.reason}${skipped ? `; skipped ${skipped}` : ''})`;
}

type Attempt = { ok: true; reason: string } | { ok: false; why: string };

async function selectAuto(options: SelectBackendOptions): Promise<Omit<BackendReport, 'requested' | 'source'>> {
  const skipped: { backend: BackendName; why: string }[] = [];
  for (const backend of BACKEND_NAMES) {
    const attempt = await activate(backend, options);
    if (attempt.ok) return { backend, reason: `auto: ${attempt.reason}`, skipped };
    skipped.push({ backend, why: attempt.why });
  }
  throw new Error(`No TensorFlow.js backend could start: ${skipped.map((s) => `${s.backend}: ${s.why}`).join('; ')}`);
}

async function selectForced(backend: BackendName, source: string, options: SelectBackendOptions): Promise<Omit<BackendReport, 'requested' | 'source'>> {
  const attempt = await activate(backend, options);
  if (attempt.ok) return { backend, reason: `${source === 'TFJS_BACKEND' ? 'TFJS_BACKEND' : 'requested'}: ${attempt.reason}`, skipped: [] };
  const fix =
    backend === 'tensorflow'
      ? ' Build it from a TensorFlow you have with `tfjs-callbacks setup-native` (palette: "TF.js Callbacks: Set Up Native Backend"), or `npm install @tensorflow/tfjs-node` (its install downloads libtensorflow; behind a firewall set TFJS_NODE_CDN_STORAGE to a mirror). Or choose wasm or cpu.'
      : ' Choose another backend (auto, wasm, cpu).';
  throw new Error(`Backend '${backend}' was requested${source === 'TFJS_BACKEND' ? ' by TFJS_BACKEND' : ''} but cannot start: ${attempt.why}.${fix}`);
}

async function activate(backend: BackendName, options: SelectBackendOptions): Promise<Attempt> {
  try {
    if (backend === 'tensorflow') return await activateNative(options.projectDir ?? process.cwd());
    if (backend === 'wasm') return await activateWasm();
    return await activateCpu();
  } catch (err) {
    return { ok: false, why: err instanceof Error ? err.message.split('\n')[0]! : String(err) };
  }
}

/**
 * tfjs-node registers the 'tensorflow' backend when required. Tried in order: the project's, the
 * runtime's, then the one `tfjs-callbacks setup-native` built (runtime/native). Every require is
 * guarded (it is optional); a copy that is installed but fails is said even when a later one loads.
 */
async function activateNative(projectDir: string): Promise<Attempt> {
  // TensorFlow's INFO lines ("This TensorFlow binary is optimized…", oneDNN) would open every
  // run's output; warnings and errors still show. TF_CPP_MIN_LOG_LEVEL=0 brings them back.
  process.env.TF_CPP_MIN_LOG_LEVEL ??= '1';
  const requirers = [
    { where: 'the project', load: (pkg: string) => createRequire(path.join(projectDir, 'noop.js'))(pkg) },
    { where: 'the runtime', load: (pkg: string) => createRequire(import.meta.url)(pkg) },
  ];
  const problems: string[] = [];
  const loaded = async (pkg: string, where: string): Promise<Attempt> => {
    if (!(await tf.setBackend('tensorflow'))) return { ok: false, why: `${pkg} from ${where} loaded but its backend did not initialize` };
    const failed = problems.length ? `; ${problems.join('; ')}` : '';
    return {
      ok: true,
      reason: `native TensorFlow from ${pkg}${pkg.endsWith('-gpu') ? ' (GPU build: CUDA when present)' : ' (CPU)'}${where === 'the project' ? '' : ` in ${where}`}${failed}`,
    };
  };
  for (const pkg of ['@tensorflow/tfjs-node-gpu', '@tensorflow/tfjs-node']) {
    for (const { where, load } of requirers) {
      try {
        load(pkg);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'MODULE_NOT_FOUND') problems.push(`${pkg} in ${where} is installed but failed to load (${(err as Error).message.split('\n')[0]})`);
        continue;
      }
      return loaded(pkg, where);
    }
  }
  const build = buildDir(nativeRoot(), tfjsVersion());
  if (hasBuild(build)) {
    const record = readRecord(build)!;
    const where = `setup-native's build (TensorFlow ${record.tensorflow.version}, ${build})`;
    try {
      requireBuiltNative(build, createRequire(import.meta.url).resolve('@tensorflow/tfjs'));
      return loaded('@tensorflow/tfjs-node', where);
    } catch (err) {
      problems.push(`${where} failed to load (${(err as Error).message.split('\n')[0]}): run \`tfjs-callbacks setup-native\` again`);
    }
  }
  return {
    ok: false,
    why: problems.length ? problems.join('; ') : '@tensorflow/tfjs-node is not installed (`tfjs-callbacks setup-native` builds it from a TensorFlow you have)',
  };
}

/** The engine's TensorFlow.js version: the tfjs-node to build and load is the same one. */
export function tfjsVersion(): string {
  return tf.version.tfjs;
}

async function activateWasm(): Promise<Attempt> {
  await import('@tensorflow/tfjs-backend-wasm');
  if (!(await tf.setBackend('wasm'))) return { ok: false, why: 'the WebAssembly module did not initialize' };
  const { servedByCpu } = coverMissingKernels('wasm');
  const cover = servedByCpu.length > 0 ? `; the ${servedByCpu.length} kernels it lacks (${servedByCpu.slice(0, 3).join(', ')}, …) run on cpu` : '';
  return { ok: true, reason: `WebAssembly with SIMD, 1 thread (Node has no wasm threads here)${cover}` };
}

async function activateCpu(): Promise<Attempt> {
  if (!(await tf.setBackend('cpu'))) return { ok: false, why: 'the cpu backend did not initialize' };
  // The cpu backend greets Node users on first use; our report replaces that banner.
  (tf.backend() as unknown as { firstUse?: boolean }).firstUse = false;
  return { ok: true, reason: 'pure JavaScript' };
}
