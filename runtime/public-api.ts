/**
 * What tfjs-callback-debugger/runtime exports (index.ts re-exports it all). Its own module, so
 * that index.ts can hand this namespace to CommonJS require()s without importing itself.
 */
export { pyFunction, type PyFunctionOptions, type PyFunctionResult } from './py-function.js';
export { numpyFunction, compat, type NumpyFunctionOptions, type NumpyFunctionResult, type ArrayResult } from './numpy-function.js';
export { graphFunction, type GraphFunctionOptions } from './graph-function.js';
export { tfFunction, type TfFunctionOptions, type TracedFunction, type ConcreteFunction } from './trace/tf-function.js';
export type {
  TracedGraph,
  TracedNode,
  KernelNode,
  CallbackNode as TracedCallbackNode,
  Edge,
  ValueRef,
  Capture,
  TensorSpec,
  OutputStructure,
} from './trace/graph.js';
export type { InputSpec } from './trace/signature.js';
export type { ExportOptions, ExportedModel } from './trace/export-model.js';
export { GraphExportError, type UnmappedNode, type ExportedCallback } from './trace/export.js';
export { MAPPED_KERNELS } from './trace/op-mapping.js';
export { TraceError, TRACE_WARNING } from './trace/errors.js';
export { NdArray, type NdData, type NumericArray } from './ndarray.js';
export { loadCallbackModel, CallbackModel, type CallbackBindings, type LoadCallbackModelOptions, type ModelInputs } from './graph-model/callback-model.js';
export { findCallbackNodes, CALLBACK_OPS, type CallbackNode } from './graph-model/callback-nodes.js';
export { readModelFiles, type ModelFiles } from './graph-model/model-files.js';
export {
  selectBackend,
  currentBackend,
  describeBackend,
  announceBackend,
  BACKEND_CHOICES,
  type BackendChoice,
  type BackendName,
  type BackendReport,
  type SelectBackendOptions,
} from './backend.js';
export { addCallbackObserver } from './hooks.js';
export { addNodeObserver, type NodeExecution, type NodeObserver } from './graph-model/node-hooks.js';
export { addOpBirthObserver, type OpBirthObserver } from './op-watch/op-watch.js';
export type { OpBirth, GradientOf, FirstNonFinite } from './op-watch/op-birth.js';
export { createNonFiniteFinder, type NonFiniteFinder, type NonFiniteOrigin } from './graph-model/first-non-finite.js';
export type {
  CallbackObserver,
  CallbackStart,
  CallbackInvocation,
  CallbackIdentity,
  CallbackKind,
  CallbackOp,
  ToutCheck,
  LiveInvocation,
  KnownCallback,
} from './events.js';
export type { ToutMismatch, Narrowing, Conversion } from './tout/tout-checks.js';
export { summarizeTensor, signature, SUMMARY_SAMPLE_LIMIT, type TensorSummary } from './summary.js';
export type { CallSite } from './callsite.js';
export { parseTout, type Tout, type ToutSpec } from './tout/tout.js';
export { parseDType, displayName, type TfDType } from './dtypes.js';
export { InvalidArgumentError, CallbackError, NotDifferentiableError, UnboundCallbackError, ModelFormatError, DynamicGraphError } from './errors.js';
export { tf, type Tensor } from './tf.js';
