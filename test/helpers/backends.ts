/**
 * Shared test helpers: the real TF.js backends every runtime test runs on.
 *
 * Usage:
 *   for (const backend of BACKENDS) describe(backend, () => { useBackend(backend); it(...); });
 */
import assert from 'node:assert/strict';
import { before } from 'node:test';
import { selectBackend, tf } from '../../runtime/index.js';

/** The backends available on every machine (tfjs-node is optional and usually absent). */
export const BACKENDS = ['wasm', 'cpu'] as const;
export type TestBackend = (typeof BACKENDS)[number];

/** Selects `name` before the tests of the enclosing describe run, and checks it is active. */
export function useBackend(name: TestBackend): void {
  before(async () => {
    await selectBackend({ backend: name, quiet: true });
    assert.equal(tf.getBackend(), name, `backend ${name} should be active`);
  });
}

/**
 * The line (1-based) of the code that called `callerLine()`, read from a fresh stack in the same
 * way the runtime reads call sites (source-mapped by tsx). Use it on the same line as the call
 * whose position is expected.
 */
export function callerLine(): number {
  const stack = new Error().stack ?? '';
  // [0] "Error", [1] this function, [2] the caller.
  const frame = stack.split('\n')[2] ?? '';
  const match = /:(\d+):(\d+)\)?$/.exec(frame.trim());
  if (!match) throw new Error(`cannot read a line from the stack frame ${JSON.stringify(frame)}`);
  return Number(match[1]);
}

/** Expects a close number (scalars read from tensors are float32). */
export function assertClose(actual: number, expected: number, tolerance = 1e-6, what = 'value'): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: expected ${expected} ± ${tolerance}, got ${actual}`);
}
