/** When the bootloaders say why ts-node failed (runtime/ts-node-check.cts): ts-node in the process, on TypeScript 7. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tsNodeInProcess, tsNodeProblem } from '../../runtime/ts-node-check.cjs';

test('ts-node as a preload, a loader, in NODE_OPTIONS, or as its CLI; not a name that merely holds it', () => {
  assert.equal(tsNodeInProcess(['-r', 'ts-node/register'], undefined, '/p/prog.ts'), true);
  assert.equal(tsNodeInProcess(['--loader=ts-node/esm'], undefined, '/p/prog.ts'), true);
  assert.equal(tsNodeInProcess([], '--require ts-node/register/transpile-only', '/p/prog.ts'), true);
  assert.equal(tsNodeInProcess([], undefined, '/p/node_modules/.bin/ts-node'), true);
  assert.equal(tsNodeInProcess([], undefined, '/p/node_modules/ts-node/dist/bin-esm.js'), true);
  assert.equal(tsNodeInProcess(['-r', 'my-ts-node-helper'], '--require ./ts-node-ish.js', '/p/prog.js'), false);
  assert.equal(tsNodeInProcess([], undefined, undefined), false);
});

test('only TypeScript 7 and later is a problem, and the words name the version, the folder and the fix', () => {
  assert.equal(tsNodeProblem({ version: '5.9.3', dir: '/p/node_modules/typescript' }), undefined);
  assert.equal(tsNodeProblem(undefined), undefined);
  assert.equal(
    tsNodeProblem({ version: '7.0.2', dir: '/p/node_modules/typescript' }),
    'tfjs-callbacks: ts-node cannot run on TypeScript 7.0.2 (/p/node_modules/typescript), which has no JavaScript compiler API.\n' +
      '  Fix: npm install --save-dev typescript@5.9 (or leave ts-node out: the debugger and the CLI run .ts programs through tsx).\n',
  );
});
