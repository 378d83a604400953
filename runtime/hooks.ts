/**
 * Debug hooks: observers of every callback invocation.
 *
 * State lives on a global symbol so that every copy of the runtime in a process (the CLI's and the
 * program's, say) shares one list of observers and one token counter.
 */
import type { CallbackInvocation, CallbackObserver, CallbackStart } from './events.js';

interface SharedState {
  observers: CallbackObserver[];
  nextToken: number;
  nextInvocation: number;
}

const KEY = Symbol.for('tfjs-callback-debugger.runtime.state');
const globalHolder = globalThis as unknown as Record<symbol, SharedState | undefined>;
export const shared: SharedState = (globalHolder[KEY] ??= { observers: [], nextToken: 0, nextInvocation: 1 });

/** Watches every callback invocation; returns the function that stops watching. */
export function addCallbackObserver(observer: CallbackObserver): () => void {
  shared.observers = [...shared.observers, observer];
  return () => {
    shared.observers = shared.observers.filter((o) => o !== observer);
  };
}

export function hasObservers(): boolean {
  return shared.observers.length > 0;
}

export function notifyStart(start: CallbackStart): void {
  for (const o of shared.observers) guarded(() => o.onCallbackStart?.(start));
}

export function notifyEnd(invocation: CallbackInvocation): void {
  for (const o of shared.observers) guarded(() => o.onCallbackEnd?.(invocation));
}

/** A broken observer must not break the program it observes. */
function guarded(notify: () => void): void {
  try {
    notify();
  } catch (err) {
    process.emitWarning(`a callback observer threw: ${err instanceof Error ? err.stack : String(err)}`, 'TfjsCallbackObserverWarning');
  }
}

export function nextInvocationId(): number {
  return shared.nextInvocation++;
}

/** TensorFlow's default callback names: pyfunc_0, pyfunc_1, … */
export function nextToken(): string {
  return `pyfunc_${shared.nextToken++}`;
}
