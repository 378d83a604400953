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

/**
 * An exception thrown by a wrapped function, with the callback's name in front. `cause` is what
 * was thrown, as thrown: `throw undefined` keeps undefined there, and the message says so.
 */
export class CallbackError extends Error {
  override name = 'CallbackError';
  constructor(
    readonly callback: string,
    readonly kind: string,
    override readonly cause: unknown,
  ) {
    super(`${kind} callback '${callback}' raised: ${describeThrown(cause)}${isError(cause) ? '' : NOT_AN_ERROR_HINT}`);
    // Keep the original frames: they point into the user's callback, which is what they debug.
    const original = isError(cause) ? (readSafely(() => cause.stack) ?? describeThrown(cause)) : describeThrown(cause);
    this.stack = `${this.name}: ${this.message}\n--- original stack ---\n${original}`;
  }
}

const NOT_AN_ERROR_HINT =
  ". It is not an Error, so it carries no stack: throw an Error (throw new Error('why')) to say what went wrong; the thrown value is kept as error.cause.";

/** A gradient was requested through a callback that cannot have one. */
export class NotDifferentiableError extends Error {
  override name = 'NotDifferentiableError';
}

/** A graph model has callback nodes no JS function is bound to. */
export class UnboundCallbackError extends Error {
  override name = 'UnboundCallbackError';
  constructor(
    message: string,
    readonly nodes: readonly { node: string; token: string; op: string }[],
  ) {
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

/**
 * What was thrown, in words, for any value: reading it never throws (a hostile getter, an object
 * with no prototype) and never grows past a line.
 */
export function describeThrown(value: unknown): string {
  if (isError(value)) {
    const name = readSafely(() => String(value.name)) ?? 'Error';
    const message = readSafely(() => String(value.message)) ?? '(its message cannot be read)';
    return clip(`${name}: ${message}`);
  }
  switch (typeof value) {
    case 'undefined':
      return 'undefined (a bare `throw undefined`, or a rejection with no reason)';
    case 'string':
      return `the string ${clip(JSON.stringify(value))}`;
    case 'number':
    case 'boolean':
    case 'bigint':
    case 'symbol':
      return `the ${typeof value} ${String(value)}`;
    case 'function':
      return `a function ${readSafely(() => value.name) || '(anonymous)'}`;
    default:
      if (value === null) return 'null';
      return `an object ${readSafely(() => clip(JSON.stringify(value))) ?? `of class ${readSafely(() => (value as object).constructor?.name) ?? 'unknown'}`}`;
  }
}

function isError(value: unknown): value is Error {
  return value instanceof Error;
}

function readSafely<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

const DESCRIBE_LIMIT = 500;

function clip(text: string | undefined): string {
  if (text === undefined) return 'undefined';
  return text.length > DESCRIBE_LIMIT ? `${text.slice(0, DESCRIBE_LIMIT)}… (${text.length} characters)` : text;
}
