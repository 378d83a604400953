/**
 * js-debug parity, sources: `breakpointLocations` (VS Code's inline breakpoint markers) gives V8's
 * possible positions on a line at their original TS columns, and nothing (no error) for a file not
 * loaded; `loadedSources` and `loadedSource` events list the program's own modules first by their
 * .ts paths, node_modules after under package names, never the runtime, loader, agent or bridge.
 * Real adapter, real debuggee, real TF.js.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { fixture, root, type Session, useDebugAdapter, withSession } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const PROGRAM = fixture('parity-program.ts');
const OTHER = fixture('numpy-program.ts');
const T = { timeout: 90_000 };

async function locations(s: Session, file: string, line: number, endLine?: number): Promise<DebugProtocol.BreakpointLocation[]> {
  const r = (await s.dc.send('breakpointLocations', {
    source: { path: file },
    line,
    ...(endLine !== undefined ? { endLine } : {}),
  })) as DebugProtocol.BreakpointLocationsResponse;
  return r.body.breakpoints;
}

/** 1-based column of `text` on `line` of `file`. */
function columnOf(file: string, line: number, text: string): number {
  const source = fs.readFileSync(file, 'utf8').split('\n')[line - 1]!;
  const at = source.indexOf(text);
  assert.ok(at >= 0, `${text} on line ${line}`);
  return at + 1;
}

describe('parity: breakpoint locations and loaded sources', () => {
  test('breakpointLocations: the calls on a line at their TS columns, a line range, nothing for a file not loaded', T, () =>
    withSession(async (s) => {
      let beforeLaunch: DebugProtocol.BreakpointLocation[] | undefined;
      await s.launch({ program: PROGRAM }, async () => {
        beforeLaunch = await locations(s, PROGRAM, lineOf(PROGRAM, '@calls'));
        await s.dc.setBreakpointsRequest({ source: { path: PROGRAM }, breakpoints: [{ line: lineOf(PROGRAM, '@helper-body') }] });
      });
      assert.deepEqual(beforeLaunch, [], 'not loaded yet: empty, no error');
      await s.stopped();
      const calls = lineOf(PROGRAM, '@calls');
      const onCalls = await locations(s, PROGRAM, calls);
      assert.ok(
        onCalls.every((b) => b.line === calls),
        JSON.stringify(onCalls),
      );
      const columns = onCalls.map((b) => b.column);
      for (const callee of ['combine(', 'double(', 'triple(']) {
        assert.ok(columns.includes(columnOf(PROGRAM, calls, callee)), `a position at ${callee}: ${JSON.stringify(onCalls)}`);
      }
      // A range: the helper's body lines, each with a position.
      const body = lineOf(PROGRAM, '@helper-body');
      const range = await locations(s, PROGRAM, body, body + 1);
      assert.deepEqual([...new Set(range.map((b) => b.line))], [body, body + 1], JSON.stringify(range));
      assert.equal(range.find((b) => b.line === body)?.column, columnOf(PROGRAM, body, 'n * 3'));
      // A comment-only or blank line has none; a file the program never loads has none.
      assert.deepEqual(await locations(s, PROGRAM, 1), []);
      assert.deepEqual(await locations(s, OTHER, lineOf(OTHER, '@input')), []);
    }),
  );

  test('loadedSources: the program first by its .ts path, node_modules after, no runtime, loader, agent or bridge', T, () =>
    withSession(async (s) => {
      await s.launch({ program: PROGRAM }, (dc) =>
        dc.setBreakpointsRequest({ source: { path: PROGRAM }, breakpoints: [{ line: lineOf(PROGRAM, '@helper-body') }] }),
      );
      await s.stopped();
      const r = (await s.dc.send('loadedSources', {})) as DebugProtocol.LoadedSourcesResponse;
      const sources = r.body.sources;
      assert.equal(sources[0]?.path, PROGRAM, sources.map((x) => x.path).join('\n'));
      assert.equal(sources[0]?.name, 'parity-program.ts');
      const own = sources.filter((x) => x.origin !== 'node_modules');
      const modules = sources.filter((x) => x.origin === 'node_modules');
      assert.ok(modules.length > 0, 'TF.js is listed');
      assert.ok(sources.indexOf(modules[0]!) === own.length, 'node_modules after the program’s own');
      for (const m of modules) {
        assert.ok(m.path?.includes(`${path.sep}node_modules${path.sep}`));
        assert.equal(m.presentationHint, 'deemphasize');
        assert.ok(!m.name?.includes('node_modules'), `named by package: ${m.name}`);
      }
      assert.ok(
        modules.some((m) => m.name?.startsWith('@tensorflow/tfjs-core/')),
        modules.map((m) => m.name).join(', '),
      );
      const internal = [
        path.join(root, 'runtime'),
        path.join(root, 'dist', 'runtime'),
        path.join(root, 'dist', 'debug-adapter'),
        path.join(root, 'debug-adapter'),
      ];
      for (const x of sources) {
        assert.ok(!internal.some((dir) => x.path!.startsWith(dir + path.sep)), `no internals: ${x.path}`);
        assert.ok(path.isAbsolute(x.path!), `no node: internals: ${x.path}`);
      }
      const events = s.all('loadedSource').map((e) => (e as DebugProtocol.LoadedSourceEvent).body);
      assert.ok(
        events.some((e) => e.reason === 'new' && e.source.path === PROGRAM),
        'a loadedSource event for the program',
      );
      const announced = events.map((e) => e.source.path);
      assert.equal(new Set(announced).size, announced.length, 'each source announced once');
      // node_modules (TF.js, tsx: ~100 scripts) is listed by the request, not announced one by one.
      assert.ok(
        sources.some((x) => x.origin === 'node_modules'),
        'the request lists node_modules',
      );
      assert.deepEqual(
        events.filter((e) => e.source.origin === 'node_modules').map((e) => e.source.path),
        [],
        'no event per node_modules script',
      );
    }),
  );
});
