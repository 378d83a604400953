/**
 * Shared test helpers: the real TF.js backends every runtime test runs on.
 *
 * Usage:
 *   for (const backend of BACKENDS) describe(backend, () => { useBackend(backend); it(...); });
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { before } from 'node:test';
import { buildDir, hasBuild, nativeRoot } from '../../runtime/native/cache.js';
import { parseChoice } from '../../runtime/backend-choice.js';
import { selectBackend, tf, type BackendName } from '../../runtime/index.js';

export type TestBackend = BackendName;

/**
 * The backends the tests run on: TEST_BACKENDS (comma-separated), else every one that loads here:
 * wasm and cpu always, tensorflow when tfjs-node is installed or `tfjs-callbacks setup-native` built it
 * (scripts/setup-test-env.sh does, where it can install TensorFlow).
 */
export const BACKENDS: readonly TestBackend[] = testBackends();

function testBackends(): TestBackend[] {
  const wanted = process.env.TEST_BACKENDS;
  if (wanted) {
    return wanted.split(',').map((name) => {
      const choice = parseChoice(name.trim(), 'TEST_BACKENDS');
      if (choice === 'auto') throw new Error('TEST_BACKENDS names backends (tensorflow, wasm, cpu), not auto');
      return choice;
    });
  }
  return nativeLoads() ? ['tensorflow', 'wasm', 'cpu'] : ['wasm', 'cpu'];
}

/** Whether the native backend is there to load (the runtime's own lookup: backend.ts). */
export function nativeLoads(): boolean {
  try {
    createRequire(import.meta.url).resolve('@tensorflow/tfjs-node');
    return true;
  } catch {
    return hasBuild(buildDir(nativeRoot(), tf.version.tfjs));
  }
}

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
export function callerLine(depth = 2): number {
  const stack = new Error().stack ?? '';
  // [0] "Error", [1] this function, [2] the caller.
  const frame = stack.split('\n')[depth] ?? '';
  const match = /:(\d+):(\d+)\)?$/.exec(frame.trim());
  if (!match) throw new Error(`cannot read a line from the stack frame ${JSON.stringify(frame)}`);
  return Number(match[1]);
}

/** The caller's line minus one: the line of the (one-line) statement just above the call. */
export function lineAbove(): number {
  return callerLine(3) - 1;
}

/** Expects a close number (scalars read from tensors are float32). */
export function assertClose(actual: number, expected: number, tolerance = 1e-6, what = 'value'): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: expected ${expected} ± ${tolerance}, got ${actual}`);
}
