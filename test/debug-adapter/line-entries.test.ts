/**
 * The break locations a step watches (debug-adapter/sources/line-entries.ts): the first of each line of each function.
 * The locations are V8's own, asked of this process's inspector for scripts compiled here.
 */
import assert from 'node:assert/strict';
import { Session } from 'node:inspector/promises';
import { after, before, test } from 'node:test';
import vm from 'node:vm';
import type { Protocol } from 'devtools-protocol';
import { lineEntries } from '../../debug-adapter/sources/line-entries.js';

type Location = Protocol.Debugger.Location;

const session = new Session();
const scriptIds = new Map<string, string>();
before(async () => {
  session.connect();
  session.on('Debugger.scriptParsed', (m) => scriptIds.set(m.params.url, m.params.scriptId));
  await session.post('Debugger.enable');
});
after(() => session.disconnect());

/** V8's break locations of `text`, compiled and run as a script named `name`. */
async function locationsOf(name: string, text: string): Promise<Location[]> {
  new vm.Script(text, { filename: name }).runInThisContext();
  const scriptId = scriptIds.get(name);
  assert.ok(scriptId, `V8 reported no script ${name}`);
  const { locations } = await session.post('Debugger.getPossibleBreakpoints', { start: { scriptId, lineNumber: 0, columnNumber: 0 } });
  return locations.map(({ scriptId, lineNumber, columnNumber }) => ({ scriptId, lineNumber, ...(columnNumber !== undefined ? { columnNumber } : {}) }));
}

const generatedLine = (l: Location) => l.lineNumber;
const positions = (locations: readonly Location[]) => locations.map((l) => `${l.lineNumber}:${l.columnNumber ?? 0}`);

test('one location per line of a function: the first', async () => {
  const text = ['function gate(x) {', '  const a = Math.abs(x), b = Math.sqrt(a);', '  return a + b;', '}'].join('\n');
  const all = await locationsOf('multi.js', text);
  assert.ok(all.filter((l) => l.lineNumber === 1).length > 1, `V8 gives line 2 several locations: ${positions(all)}`);
  const entries = lineEntries(text, all, generatedLine);
  assert.deepEqual(positions(entries), positions([1, 2, 3].map((line) => all.find((l) => l.lineNumber === line)!)));
});

test('an inline callback keeps its own first location on a line its caller shares', async () => {
  const text = ['function standardize(x) {', '  return x.map((v) => v - 1);', '}'].join('\n');
  const all = await locationsOf('inline.js', text);
  const arrow = text.split('\n')[1]!.indexOf('=>');
  const inCallback = all.find((l) => l.lineNumber === 1 && (l.columnNumber ?? 0) > arrow);
  assert.ok(inCallback, `V8 has a location in the callback's body: ${positions(all)}`);
  const entries = positions(lineEntries(text, all, generatedLine));
  assert.ok(entries.includes(`1:${inCallback.columnNumber}`), `the callback's first location stays: ${entries}`);
  assert.equal(entries.filter((p) => p.startsWith('1:')).length, 2, `the caller's line keeps one of its own: ${entries}`);
});

test('lines are the source lines the locations map to, where a source map says', async () => {
  // One generated line holding two source lines (a bundler's output): both keep a location.
  const text = 'function both(){Math.abs(1);Math.abs(2);}';
  const all = await locationsOf('bundled.js', text);
  const second = text.indexOf('Math.abs(2)');
  const sourceLine = (l: Location) => ((l.columnNumber ?? 0) < second ? 'f.ts:2' : 'f.ts:3');
  const inFunction = (l: Location) => (l.columnNumber ?? 0) < text.length - 1;
  assert.ok(all.filter(inFunction).length > 2, `V8 gives the function more than two locations: ${positions(all)}`);
  assert.deepEqual(lineEntries(text, all, sourceLine).filter(inFunction).map(sourceLine), ['f.ts:2', 'f.ts:3']);
});

test("CommonJS bodies (a top-level return) and ES modules parse: they keep one location a line, not V8's all", () => {
  const at = (lineNumber: number, columnNumber: number) => ({ scriptId: '1', lineNumber, columnNumber });
  const cjs = ['const x = 1; const y = 2;', 'if (x) return;'].join('\n');
  assert.deepEqual(positions(lineEntries(cjs, [at(0, 0), at(0, 13), at(1, 0), at(1, 7)], generatedLine)), ['0:0', '1:0']);
  const esm = ["import fs from 'node:fs'; const a = 1; const b = 2;", 'export const c = await Promise.resolve(a + b);'].join('\n');
  assert.deepEqual(positions(lineEntries(esm, [at(0, 26), at(0, 40), at(1, 17), at(1, 23)], generatedLine)), ['0:26', '1:17']);
});

test('a script acorn cannot parse keeps every location', () => {
  const locations = [
    { scriptId: '1', lineNumber: 0, columnNumber: 0 },
    { scriptId: '1', lineNumber: 0, columnNumber: 5 },
  ];
  assert.deepEqual(lineEntries('this is not JavaScript (', locations, generatedLine), locations);
});
