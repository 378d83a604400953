/**
 * No import circle in product code (runtime/, debug-adapter/, extension/, media/src/), type-only
 * imports included: scripts/import-circles.ts reads every relative import. And no arrow back up in
 * runtime/: a module in a sub-folder imports no top-level runtime module that leads back into its
 * own sub-folder (programs aside: RUNTIME_PROGRAMS).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { arrowsBackUp, importCircles, mutualFolders, RUNTIME_PROGRAMS } from '../../scripts/import-circles.js';
import { repoRoot } from '../fixtures/spawn.js';

test('product code has no import circle', () => {
  assert.deepEqual(
    importCircles(repoRoot, true).map((circle) => circle.join(' <-> ')),
    [],
  );
});

test('no arrow back up: a runtime/ sub-folder module imports no top-level module that leads back into its sub-folder', () => {
  for (const program of RUNTIME_PROGRAMS) assert.ok(existsSync(path.join(repoRoot, program)), `${program} exists`);
  assert.deepEqual(arrowsBackUp(repoRoot), []);
});

test('debug-adapter/ forms a stack: no arrow back up from a sub-folder, no two sub-folders importing each other', () => {
  assert.deepEqual(arrowsBackUp(repoRoot, [], 'debug-adapter'), []);
  assert.deepEqual(mutualFolders(repoRoot, 'debug-adapter'), []);
  assert.deepEqual(mutualFolders(repoRoot, 'runtime'), []);
});

test('two folders importing each other are found, type-only imports included', () => {
  const tree = mkdtempSync(path.join(os.tmpdir(), 'import-circles-'));
  try {
    for (const folder of ['low', 'high']) mkdirSync(path.join(tree, 'debug-adapter', folder), { recursive: true });
    writeFileSync(path.join(tree, 'debug-adapter', 'high', 'a.ts'), "import { b } from '../low/b.js';\nexport const a = b;\n");
    writeFileSync(path.join(tree, 'debug-adapter', 'low', 'b.ts'), 'export const b = 1;\n');
    writeFileSync(path.join(tree, 'debug-adapter', 'low', 'c.ts'), "import type { a } from '../high/a.js';\nexport type C = typeof a;\n");
    assert.deepEqual(mutualFolders(tree, 'debug-adapter'), [
      'debug-adapter/high <-> debug-adapter/low: debug-adapter/high/a.ts -> debug-adapter/low/b.ts; debug-adapter/low/c.ts -> debug-adapter/high/a.ts',
    ]);
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
});

test('a circle of type-only imports counts; without types it is none', () => {
  const tree = mkdtempSync(path.join(os.tmpdir(), 'import-circles-'));
  try {
    mkdirSync(path.join(tree, 'runtime'));
    writeFileSync(
      path.join(tree, 'runtime', 'events.ts'),
      "import type { Check } from './checks.js';\nexport type Kind = 'a';\nexport interface Done { check: Check }\n",
    );
    writeFileSync(path.join(tree, 'runtime', 'checks.ts'), "import type { Kind } from './events.js';\nexport interface Check { kind: Kind }\n");
    assert.deepEqual(importCircles(tree, true), [['runtime/checks.ts', 'runtime/events.ts']]);
    assert.deepEqual(importCircles(tree, false), []);
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
});

test('an arrow back up is found through a top-level module, and a program is left out', () => {
  const tree = mkdtempSync(path.join(os.tmpdir(), 'arrows-back-up-'));
  try {
    mkdirSync(path.join(tree, 'runtime', 'tout'), { recursive: true });
    writeFileSync(path.join(tree, 'runtime', 'tout', 'verdict.ts'), 'export type Verdict = string;\n');
    writeFileSync(path.join(tree, 'runtime', 'summary.ts'), "import type { Verdict } from './tout/verdict.js';\nexport type Summary = Verdict;\n");
    writeFileSync(path.join(tree, 'runtime', 'events.ts'), "import type { Summary } from './summary.js';\nexport type Kind = Summary;\n");
    writeFileSync(path.join(tree, 'runtime', 'tout', 'checks.ts'), "import type { Kind } from '../events.js';\nexport type Check = Kind;\n");
    assert.deepEqual(importCircles(tree, true), []);
    assert.deepEqual(arrowsBackUp(tree), ['runtime/tout/checks.ts -> runtime/events.ts, which leads back to runtime/tout/verdict.ts']);
    assert.deepEqual(arrowsBackUp(tree, ['runtime/tout/checks.ts']), []);
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
});
