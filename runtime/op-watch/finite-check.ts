/**
 * Whether a float tensor holds NaN or ±Inf, read where its values live, with no copy into JS
 * where the backend allows: the cpu backend's own array, the wasm backend's heap (test/unit/
 * op-watch.test.ts checks both stores are read as TF.js keeps them). Elsewhere (the
 * native backend copies on every read) a small tensor is read and a large one is reduced on the
 * backend (`IsFinite` then `All`: one boolean read back).
 */
import type { Tensor } from '../tf.js';
import type { DataBackend, EngineInternals } from './engine-internals.js';

/** Up to this many elements a copy beats two kernels and their read on the native backend. */
const COPY_LIMIT = 1 << 14;

/** The index of the first NaN or ±Inf in `values`, or -1. */
export function firstNonFinite(values: ArrayLike<unknown>): number {
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    // NaN - NaN and Inf - Inf are NaN; every finite v gives 0.
    if (v - v !== 0) return i;
  }
  return -1;
}

/** Says whether a tensor holds a NaN or ±Inf; only float tensors can. */
export type NonFiniteTest = (t: Tensor) => boolean;

/** The cpu backend's store: each dataId's values, the array its dataSync returns. */
interface CpuStore {
  readonly data: { get(dataId: object): { values?: ArrayLike<number> } | undefined };
}

/** The wasm backend's store: each dataId's place in the module's heap. */
interface WasmStore {
  readonly dataIdMap: { get(dataId: object): { memoryOffset: number } | undefined };
  readonly wasm: { readonly HEAPF32: Float32Array };
}

/**
 * The test for the engine's backends. Which backend is asked once per change of the engine's
 * backend; the cpu and wasm stores are read directly (a kernel's outputs are checked thousands of
 * times a second: the backends' own readers allocate a view or check dtypes on every call).
 */
export function nonFiniteTest(engine: EngineInternals): NonFiniteTest {
  let backend: DataBackend | undefined;
  let read: (t: Tensor) => boolean = () => false;
  return (t) => {
    if (t.dtype !== 'float32' || t.isDisposed) return false;
    const current = engine.backend;
    if (current !== backend) {
      backend = current;
      read = readerFor(engine, current);
    }
    return read(t);
  };
}

function readerFor(engine: EngineInternals, backend: DataBackend): (t: Tensor) => boolean {
  const registry = engine.registry;
  const cpu = backend as unknown as Partial<CpuStore>;
  if (backend === registry.cpu && cpu.data && typeof cpu.data.get === 'function') {
    const data = cpu.data;
    return (t) => {
      const values = data.get(t.dataId)?.values;
      return firstNonFinite(values ?? backend.readSync(t.dataId)) >= 0;
    };
  }
  const wasm = backend as unknown as Partial<WasmStore>;
  if (backend === registry.wasm && wasm.dataIdMap && wasm.wasm?.HEAPF32) {
    const ids = wasm.dataIdMap;
    const module = wasm.wasm;
    return (t) => {
      const at = ids.get(t.dataId);
      if (!at) return false;
      // HEAPF32 is replaced when the heap grows: read it at each check.
      const heap = module.HEAPF32;
      const start = at.memoryOffset >> 2;
      const end = start + t.size;
      for (let i = start; i < end; i++) {
        const v = heap[i]!;
        if (v - v !== 0) return true;
      }
      return false;
    };
  }
  return (t) => (t.size <= COPY_LIMIT ? firstNonFinite(backend.readSync(t.dataId)) >= 0 : !allFiniteOnBackend(engine, t));
}

/** Reduced on the backend. Run as if inside a kernel: no gradient tape records it, no watch checks it. */
function allFiniteOnBackend(engine: EngineInternals, t: Tensor): boolean {
  engine.state.kernelDepth++;
  let finite: Tensor | undefined;
  let all: Tensor | undefined;
  try {
    finite = engine.runKernel('IsFinite', { x: t });
    all = engine.runKernel('All', { x: finite }, { axis: [...t.shape.keys()], keepDims: false });
    return Boolean(all.dataSync()[0]);
  } finally {
    finite?.dispose();
    all?.dispose();
    engine.state.kernelDepth--;
  }
}
