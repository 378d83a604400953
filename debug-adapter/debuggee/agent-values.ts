/**
 * The values that cross between the agent and the adapter (and on to the extension's inspector):
 * a value's summary, pages of its values, its bytes, and what the Callback scope shows of it. Types
 * only; agent-protocol.ts gives them with the rest of the contract.
 */

/**
 * One input or output: a tensor, NdArray, typed array, or a JS literal (kind "Array", "number",
 * "boolean", "string") with the dtype it takes; `opaque` for a value that is none of those
 * (kind says what it is: "Promise", "Object", "null", …; no dtype, shape or values).
 */
export interface ValueInfo {
  kind: string;
  dtype: string;
  shape: number[];
  size: number;
  disposed: boolean;
  opaque?: boolean;
  min?: number;
  max?: number;
  mean?: number;
  nanCount?: number;
  /** ±Inf, both signs. */
  infCount?: number;
  /** Of infCount, the −Inf ones (runtime/summary.ts; absent from an older agent). */
  negInfCount?: number;
  zeroCount?: number;
  exact?: boolean;
  counted?: number;
  preview?: FlatValue[];
}

/**
 * A non-finite number in an answer's `values` or `preview` (debug-adapter/cdp/wire-values.ts): JSON has no
 * NaN or ±Infinity and would make each of them null. `nonFinite` is JS's own text of the number.
 */
export interface NonFiniteValue {
  nonFinite: 'NaN' | 'Infinity' | '-Infinity';
}

/** A flat value as JSON: numbers (bigints as numbers; NaN and ±Infinity as NonFiniteValue), strings or booleans. */
export type FlatValue = number | NonFiniteValue | string | boolean;

/** Values [start, start + values.length) of a value, flattened row-major. */
export interface ValuePage {
  info: ValueInfo;
  start: number;
  values: FlatValue[];
}

export type Side = 'inputs' | 'outputs';

/** Summaries of an invocation's inputs and outputs (or returned values). */
export interface InvocationDetails {
  inputs: ValueInfo[];
  outputs: ValueInfo[];
}

/** A registered tf.Variable as `variableList` tells it. */
export interface TrainingVariable {
  name: string;
  trainable: boolean;
  info: ValueInfo;
}

/** Bytes of a value's backing buffer (`memoryRead`): base64, little-endian as stored. */
export interface MemoryPage {
  /** Where `data` starts in the buffer. */
  offset: number;
  data: string;
  /** How long the whole buffer is. */
  byteLength: number;
  dtype: string;
}

/**
 * How the Callback scope shows an input: a tensor or NdArray (`info` and its `describe` text), a
 * typed array, a primitive, or `remote`: a value the adapter shows by reference (an object, a
 * function, a plain array).
 */
export type ScopeValue =
  | { shown: 'tensor'; description: string; info: ValueInfo; className: string }
  | { shown: 'typedarray'; description: string; length: number; className: string }
  | { shown: 'primitive'; text: string; type: string }
  | { shown: 'remote' };

/** What the Callback scope shows of an invocation's inputs, in one answer. */
export interface CallbackScopeData {
  inputs: ScopeValue[];
}

/**
 * A pinned expression at one stop (the `pinnedValues` event): its summary and first values, or
 * `unresolved` (a ReferenceError: a name the frame does not see), or the error it threw.
 */
export type PinnedValue =
  | { expression: string; status: 'value'; info: ValueInfo; values: FlatValue[] }
  | { expression: string; status: 'unresolved' }
  | { expression: string; status: 'error'; error: string };
