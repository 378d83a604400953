/** What a launch's error quotes of a program that ended before its bridge connected (debuggee/stderr-tail.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StderrTail } from '../../debug-adapter/debuggee/stderr-tail.js';

const said = (...chunks: string[]) => {
  const tail = new StderrTail();
  for (const c of chunks) tail.add(c);
  return tail.reason();
};

test('our own line and its indented fix, joined, over the stack under it', () => {
  assert.equal(
    said(
      'tfjs-callbacks: ts-node cannot run on TypeScript 7.0.2 (/p/node_modules/typescript), which has no JavaScript compiler API.\n  Fix: npm install x\n',
      '/p/x.js:91\n    at y\n\nTypeError: boom\n',
    ),
    'tfjs-callbacks: ts-node cannot run on TypeScript 7.0.2 (/p/node_modules/typescript), which has no JavaScript compiler API. Fix: npm install x',
  );
});

test("a preload's error line (split across chunks), not Node's version line", () => {
  const stack =
    "node:internal/modules/cjs/loader:1228\n  throw err;\n  ^\n\nError: Cannot find module './missing'\nRequire stack:\n- internal/preload\n    at Module._resolveFilename (node:x)\n\nNode.js v20.20.2\n";
  assert.equal(said(stack.slice(0, 60), stack.slice(60)), "Error: Cannot find module './missing'");
});

test('else the last line said; nothing said is undefined', () => {
  assert.equal(said('starting\nout of luck\n\nNode.js v20.1.0\n'), 'out of luck');
  assert.equal(said(''), undefined);
});

test('kept bounded: a long stderr keeps its end', () => {
  assert.equal(said('x'.repeat(100_000), '\nRangeError: last\n'), 'RangeError: last');
});
