/**
 * `debugger` statements: the launch scan that keeps V8's debugger on from the start for programs
 * that hold one (unit), and a real stop on one in a callback of a program launched with no
 * breakpoint (real adapter, real program).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { hasDebuggerStatement } from '../../debug-adapter/sources/debugger-statements.js';
import { fixture, useDebugAdapter, withSession } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dbg-stmt-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

describe('the scan for debugger statements', () => {
  test('follows local imports (./x.js is x.ts), dynamic imports and require, to any depth', () => {
    const dir = project({
      'main.ts': "import { a } from './lib/a.js';\nconst b = await import('./b');\n",
      'lib/a.ts': "export const a = require('../c.cjs');\n",
      'b.ts': 'export const b = 1;\n',
      'c.cjs': 'module.exports = function () {\n  debugger;\n};\n',
    });
    assert.equal(hasDebuggerStatement([path.join(dir, 'main.ts')]), true);
    assert.equal(hasDebuggerStatement([path.join(dir, 'b.ts')]), false);
  });

  test('skips a local import too large to be a program file, without reading it, and scans on', () => {
    const dir = project({
      'main.ts': "import './huge.js';\nimport './after.js';\n",
      'huge.ts': '',
      'after.ts': 'debugger;\n',
    });
    // A sparse 400 MB file: read whole (as before) it costs at least its size in memory.
    truncateSync(path.join(dir, 'huge.ts'), 400 * 1024 ** 2);
    const peakBefore = process.resourceUsage().maxRSS;
    assert.equal(hasDebuggerStatement([path.join(dir, 'main.ts')]), true);
    const grewMb = (process.resourceUsage().maxRSS - peakBefore) / 1024;
    assert.ok(grewMb < 100, `the scan's peak memory grew by ${grewMb.toFixed(0)} MB: it read the 400 MB file`);
  });

  test('ignores packages, identifiers that only contain the word, and missing files', () => {
    const dir = project({
      'main.ts': "import tf from '@tensorflow/tfjs';\nimport { x } from './missing.js';\nconst debuggerOn = true;\nobj.debugger = 1;\n",
      'node_modules/pkg/index.js': 'debugger;\n',
    });
    assert.equal(hasDebuggerStatement([path.join(dir, 'main.ts')]), false);
    assert.equal(hasDebuggerStatement([path.join(dir, 'nothing-here.ts')]), false);
  });

  test('a statement at the end of a block or of the file counts', () => {
    const dir = project({ 'a.js': 'if (x) { debugger }\n', 'b.js': 'debugger' });
    assert.equal(hasDebuggerStatement([path.join(dir, 'a.js')]), true);
    assert.equal(hasDebuggerStatement([path.join(dir, 'b.js')]), true);
  });
});

describe('a debugger statement in a callback', () => {
  test('stops there in a launch with no breakpoint, the callback inputs bound', { timeout: 60_000 }, () =>
    withSession(async (s) => {
      const callbacks = fixture('statement/callbacks.ts');
      await s.launch({ program: fixture('statement/debugger-program.ts') });
      const stop = await s.stopped();
      assert.equal(stop.body.reason, 'pause');
      assert.equal(stop.body.description, 'Paused on debugger statement');
      const [top] = await s.stack();
      assert.equal(top?.name, 'halve_values');
      assert.equal(top?.source?.path, callbacks);
      assert.equal(top?.line, lineOf(callbacks, '@debugger'));
      const cb = await s.scope(top!.id, 'Callback');
      assert.match(cb.get('x').value, /^NdArray float32\[3\] min=2 max=6/);
      await s.dc.continueRequest({ threadId: 1 });
      await s.waitForOutput('halved 1,2,3', 'stdout');
    }),
  );
});
