/**
 * Kernels the active backend lacks. TF.js's wasm backend has no Conv2DBackpropFilter (so training
 * a conv net fails there), Einsum, UnsortedSegmentSum, …: each is served by the cpu backend's
 * kernel, the tensors copied over and back, and said once on stderr. What cpu cannot serve here
 * either (complex numbers: wasm cannot hold them) fails with a message naming the backend, the
 * kernel and the fix, never with TF.js's bare "Kernel … not registered".
 */
import { tf } from './tf.js';

type TensorInfo = { dataId: object; shape: number[]; dtype: tf.DataType };
type BackendLike = {
  readSync(dataId: object): unknown;
  write(values: unknown, shape: number[], dtype: tf.DataType): object;
  disposeData(dataId: object, force?: boolean): boolean;
};
/** Named inputs, or a list for variadic kernels (Einsum, Concat, AddN). */
type KernelInputs = Record<string, TensorInfo | undefined> | (TensorInfo | undefined)[];
type KernelFunc = (params: { inputs: KernelInputs; backend: unknown; attrs?: unknown }, refusal?: string) => TensorInfo | TensorInfo[];

/** Kernels whose tensors the wasm backend cannot hold (complex64), and the browser-only Draw. */
const NOT_SERVED = new Set(['Complex', 'ComplexAbs', 'Real', 'Imag', 'FFT', 'IFFT', 'RFFT', 'IRFFT', 'Draw']);

export interface KernelCover {
  /** Kernels now served by cpu on `backend`. */
  readonly servedByCpu: readonly string[];
  /** Kernels that fail with a clear message instead. */
  readonly missing: readonly string[];
}

const covered = new Set<string>();

/**
 * Registers, for every kernel cpu has and `backend` lacks, a kernel that runs cpu's on copies (or
 * says why it cannot). Once per backend per process.
 */
export function coverMissingKernels(backend: string, report: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): KernelCover {
  if (backend === 'cpu' || covered.has(backend)) return { servedByCpu: [], missing: [] };
  covered.add(backend);
  const cpu = tf.findBackend('cpu') as unknown as (BackendLike & { firstUse?: boolean }) | null;
  // The cpu backend greets Node users on first use; the report below replaces that banner.
  if (cpu) cpu.firstUse = false;
  const servedByCpu: string[] = [];
  const missing: string[] = [];
  const ownKernels = new Map(tf.getKernelsForBackend(backend).map((k) => [k.kernelName, k]));
  for (const kernel of tf.getKernelsForBackend('cpu')) {
    const name = kernel.kernelName;
    const own = ownKernels.get(name);
    if (own && cpu) {
      // It has the kernel, but maybe not for every dtype (wasm's BatchMatMul refuses int32): what
      // it refuses as unsupported runs on cpu too.
      tf.unregisterKernel(name, backend);
      tf.registerKernel({
        ...own,
        kernelFunc: unlessUnsupported(
          own.kernelFunc as unknown as KernelFunc,
          onCpu(name, kernel.kernelFunc as unknown as KernelFunc, cpu, backend, report),
        ) as never,
      });
      continue;
    }
    if (own) continue;
    if (cpu && !NOT_SERVED.has(name)) {
      servedByCpu.push(name);
      tf.registerKernel({
        kernelName: name,
        backendName: backend,
        kernelFunc: onCpu(name, kernel.kernelFunc as unknown as KernelFunc, cpu, backend, report) as never,
      });
    } else {
      missing.push(name);
      tf.registerKernel({
        kernelName: name,
        backendName: backend,
        kernelFunc: (() => {
          throw missingKernelError(name, backend);
        }) as never,
      });
    }
  }
  return { servedByCpu, missing };
}

/** `own`, and when it throws that it does not support its inputs, `fallback`. */
function unlessUnsupported(own: KernelFunc, fallback: KernelFunc): KernelFunc {
  return (params) => {
    try {
      return own(params);
    } catch (err) {
      if (err instanceof Error && /not (yet )?supported|unsupported|not implemented/i.test(err.message)) return fallback(params, err.message);
      throw err;
    }
  };
}

/** Runs cpu's kernel on copies; `refusal`: the backend's own kernel refused the inputs, saying this. */
function onCpu(name: string, cpuKernel: KernelFunc, cpu: BackendLike, backendName: string, report: (line: string) => void): KernelFunc {
  const said = new Set<string>();
  return ({ inputs, backend, attrs }, refusal) => {
    const what = refusal ? `'s kernel '${name}' refused its inputs ("${refusal}")` : ` has no kernel '${name}'`;
    if (!said.has(what)) {
      said.add(what);
      report(
        `[tfjs-callbacks] ${backendName}${what}: it runs on cpu, its tensors copied over and back (slower). The cpu backend avoids the copies: TFJS_BACKEND=cpu, --backend cpu, or the tfjsCallbacks.backend setting.`,
      );
    }
    const from = backend as BackendLike;
    const made: object[] = [];
    const move = (info: TensorInfo | undefined): TensorInfo | undefined => {
      if (!info) return info;
      const dataId = cpu.write(copyOf(from.readSync(info.dataId)), info.shape, info.dtype);
      made.push(dataId);
      return { dataId, shape: info.shape, dtype: info.dtype };
    };
    try {
      const moved = Array.isArray(inputs) ? inputs.map(move) : Object.fromEntries(Object.entries(inputs).map(([key, info]) => [key, move(info)]));
      const out = cpuKernel({ inputs: moved, backend: cpu, attrs });
      const outs = Array.isArray(out) ? out : [out];
      const back = outs.map((o) => {
        made.push(o.dataId);
        return { dataId: from.write(copyOf(cpu.readSync(o.dataId)), o.shape, o.dtype), shape: o.shape, dtype: o.dtype };
      });
      return Array.isArray(out) ? back : back[0]!;
    } finally {
      for (const dataId of made) cpu.disposeData(dataId, true);
    }
  };
}

/** A backend's typed array may be a view of its memory (wasm's heap): keep a copy of our own. */
function copyOf(values: unknown): unknown {
  return ArrayBuffer.isView(values) ? (values as unknown as { slice(): unknown }).slice() : values;
}

export function missingKernelError(name: string, backend: string): Error {
  const what = NOT_SERVED.has(name) && name !== 'Draw' ? ' (complex numbers, which it cannot hold)' : '';
  return new Error(
    `TF.js's ${backend} backend has no kernel '${name}'${what}, and this program needs it. ` +
      `Run it on the cpu backend (TFJS_BACKEND=cpu, --backend cpu, or the tfjsCallbacks.backend setting), or on tensorflow (native) where it is installed.`,
  );
}
