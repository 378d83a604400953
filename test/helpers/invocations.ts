/**
 * Watching callback invocations in tests: the end events a body produced, and the Tout error it
 * raised.
 */
import assert from 'node:assert/strict';
import { addCallbackObserver, InvalidArgumentError, type CallbackInvocation } from '../../runtime/index.js';

/** Runs `body` with an observer attached: what it returned, the end events seen, and the last one. */
export function observed<T>(body: () => T): { result: T; ends: CallbackInvocation[]; end: CallbackInvocation } {
  const ends: CallbackInvocation[] = [];
  const stop = addCallbackObserver({ onCallbackEnd: (e) => ends.push(e) });
  try {
    const result = body();
    return { result, ends, end: ends.at(-1)! };
  } finally {
    stop();
  }
}

/** Asserts that `run` throws an Error and returns it. */
export function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (err) {
    assert.ok(err instanceof Error, `expected an Error, got ${String(err)}`);
    return err;
  }
  assert.fail('expected an error');
}

/** Asserts that `run` throws InvalidArgumentError and returns it. */
export function toutError(run: () => unknown): InvalidArgumentError {
  try {
    run();
  } catch (err) {
    assert.ok(err instanceof InvalidArgumentError, `expected InvalidArgumentError, got ${err instanceof Error ? err.stack : String(err)}`);
    return err;
  }
  assert.fail('expected an InvalidArgumentError');
}

export function firstLine(err: Error): string {
  return err.message.split('\n')[0]!;
}
