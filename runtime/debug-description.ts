/**
 * Previews for debuggers: VS Code's js-debug (and our own adapter) call
 * `value[Symbol.for('debug.description')]()` for the one-line text of an object, so a tensor
 * shows as `Tensor float32[2,3]` and an NdArray as `NdArray float32[2,3]`, not as `{…}`.
 * The text reads no data: it must be cheap (previews are built for every value on screen) and
 * never throw (a debugger would show the error instead of the value).
 */
import { tf, type Tensor } from './tf.js';

export const DEBUG_DESCRIPTION: unique symbol = Symbol.for('debug.description') as never;

/** `<kind> <dtype>[<shape>]`, or `<kind> (unreadable)` when dtype or shape cannot be read. */
export function describeArrayLike(kind: string, dtype: unknown, shape: unknown): string {
  try {
    if (typeof dtype !== 'string' || !Array.isArray(shape)) return `${kind} (unreadable)`;
    return `${kind} ${dtype}[${shape.join(',')}]`;
  } catch {
    return `${kind} (unreadable)`;
  }
}

/** `Tensor float32[2,3]`, `Variable …` for a tf.Variable, with ` (disposed)` once disposed. */
export function describeTensor(tensor: Tensor): string {
  try {
    const kind = tensor instanceof tf.Variable ? 'Variable' : 'Tensor';
    const text = describeArrayLike(kind, tensor.dtype, tensor.shape);
    return tensor.isDisposed ? `${text} (disposed)` : text;
  } catch {
    return 'Tensor (unreadable)';
  }
}

/**
 * Gives every tensor of this copy of TF.js the description, once: non-enumerable, and not over
 * one that something else installed already.
 */
export function installTensorDescription(): void {
  const proto = tf.Tensor.prototype as object;
  if (Object.hasOwn(proto, DEBUG_DESCRIPTION)) return;
  Object.defineProperty(proto, DEBUG_DESCRIPTION, {
    value: function debugDescription(this: Tensor): string {
      return describeTensor(this);
    },
    enumerable: false,
    writable: true,
    configurable: true,
  });
}

installTensorDescription();
