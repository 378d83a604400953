/**
 * Whether a float tensor holds NaN or ±Inf, read where its values live, with no copy into JS
 * where the backend allows: the cpu backend's own array, the wasm backend's heap. Elsewhere (the
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

/** The test for the engine's backends as they are now (registry entries are looked up once per call). */
export function nonFiniteTest(engine: EngineInternals): NonFiniteTest {
  return (t) => {
    if (t.dtype !== 'float32' || t.isDisposed) return false;
    const backend = engine.backend;
    const view = valuesInPlace(engine, backend, t);
    if (view) return firstNonFinite(view) >= 0;
    if (t.size <= COPY_LIMIT) return firstNonFinite(backend.readSync(t.dataId)) >= 0;
    return !allFiniteOnBackend(engine, t);
  };
}

/** The values without a copy, where the backend keeps them in memory JS can see. */
function valuesInPlace(engine: EngineInternals, backend: DataBackend, t: Tensor): ArrayLike<unknown> | undefined {
  const registry = engine.registry;
  if (backend === registry.cpu) return backend.readSync(t.dataId);
  if (backend === registry.wasm && backend.typedArrayFromHeap) return backend.typedArrayFromHeap({ shape: t.shape, dtype: t.dtype, dataId: t.dataId });
  return undefined;
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
