/**
 * Errors a callback can raise, worded as TensorFlow words them so porters recognise them.
 */

/** What went wrong in the Tout check. */
export type ToutProblem = 'count' | 'dtype' | 'value';

/**
 * TensorFlow raises `InvalidArgumentError` when a py_func's outputs do not match Tout.
 * The first line of `message` is TensorFlow's own text; the lines after it say what the value was.
 */
export class InvalidArgumentError extends Error {
  override name = 'InvalidArgumentError';
  constructor(
    message: string,
    readonly callback: string,
    readonly problem: ToutProblem,
    /** The output index, for dtype and value problems. */
    readonly index?: number,
  ) {
    super(message);
  }
}

/** An exception thrown by a wrapped function, with the callback's name in front. */
export class CallbackError extends Error {
  override name = 'CallbackError';
  constructor(readonly callback: string, readonly kind: string, override readonly cause: unknown) {
    super(`${kind} callback '${callback}' raised: ${describeThrown(cause)}`);
    // Keep the original frames: they point into the user's callback, which is what they debug.
    const original = cause instanceof Error && cause.stack ? cause.stack : String(cause);
    this.stack = `${this.name}: ${this.message}\n--- original stack ---\n${original}`;
  }
}

/** A gradient was requested through a callback that cannot have one. */
export class NotDifferentiableError extends Error {
  override name = 'NotDifferentiableError';
}

/** A graph model has callback nodes no JS function is bound to. */
export class UnboundCallbackError extends Error {
  override name = 'UnboundCallbackError';
  constructor(message: string, readonly nodes: readonly { node: string; token: string; op: string }[]) {
    super(message);
  }
}

/** A model with control flow (or dynamic shapes) was run with the synchronous execute(). */
export class DynamicGraphError extends Error {
  override name = 'DynamicGraphError';
}

/** The model files cannot be read or are not a TF.js graph model. */
export class ModelFormatError extends Error {
  override name = 'ModelFormatError';
}

function describeThrown(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  return String(value);
}
