/**
 * The parts of tfjs-core's Engine the op watch shadows and reads, typed structurally: they are
 * plain prototype methods and fields in every 3.x and 4.x build, but private in its typings.
 */
import type { Tensor } from '../tf.js';

/** A kernel's inputs as tfjs passes them: a named map, or an array (Concat, AddN, Pack). */
export type KernelInputs = Record<string, Tensor | undefined> | (Tensor | undefined)[];

/** What `runKernelFunc` is given: a registered kernel by name, or a customGrad op's forward function. */
export interface KernelParams {
  readonly kernelName?: string;
  readonly inputs: KernelInputs;
  readonly attrs?: Record<string, unknown>;
  readonly forwardFunc?: unknown;
}

export interface TapeNode {
  readonly kernelName: string;
  gradient?: (dys: Tensor[]) => Record<string, () => Tensor>;
}

export interface DataBackend {
  readSync(dataId: object): ArrayLike<unknown>;
  typedArrayFromHeap?(info: { shape: number[]; dtype: string; dataId: object }): ArrayLike<number>;
}

export interface EngineState {
  kernelDepth: number;
  gradientDepth: number;
  activeTape: TapeNode[] | null;
  scopeStack: { name: string }[];
  activeScope: { name: string } | null;
}

/** The engine's own methods the watch shadows with instance properties (`delete` restores them). */
export interface ShadowedMethods {
  runKernelFunc(params: KernelParams): Tensor | Tensor[];
  makeTensor(values: ArrayLike<unknown>, shape: number[], dtype?: string, backend?: unknown): Tensor;
  addTapeNode(kernelName: string, inputs: unknown, outputs: Tensor[], gradientsFunc: unknown, saved: unknown, attrs: unknown): void;
}

export interface EngineInternals extends ShadowedMethods {
  readonly state: EngineState;
  readonly backend: DataBackend;
  readonly backendName: string | null;
  readonly registry: Record<string, unknown>;
  runKernel(name: string, inputs: Record<string, Tensor>, attrs?: Record<string, unknown>): Tensor;
}
