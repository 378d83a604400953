/**
 * Every DAP request gets a response: each request the adapter answers, sent with arguments
 * missing, null, negative, huge or of the wrong type, while paused, while running and after the
 * program exited; the session still works afterwards. Breakpoints on impossible lines come back
 * unverified with a reason; stackTrace at the debuggee's death answers; a 10M-value variables
 * page answers with a capped page; attach to a WebSocket that is no inspector fails clearly.
 * Real adapter (dist/), real debuggee, real TF.js.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { describe, test } from 'node:test';
import { WebSocketServer } from 'ws';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { rawRequest, root, THREAD, useDebugAdapter, withSession, type RawOutcome, type Session } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const HOSTILE = path.join(root, 'test', 'fixtures', 'hostile', 'hostile-program.ts');
const STOP_LINE = lineOf(HOSTILE, '@stop');
const T = { timeout: 180_000 };

/** The requests the adapter answers (initialize's capabilities and the standard set) and the fields they take. */
const REQUESTS: Record<string, string[]> = {
  setBreakpoints: ['source', 'breakpoints'],
  setFunctionBreakpoints: ['breakpoints'],
  setExceptionBreakpoints: ['filters'],
  threads: [],
  stackTrace: ['threadId', 'startFrame', 'levels'],
  scopes: ['frameId'],
  variables: ['variablesReference', 'start', 'count', 'filter'],
  evaluate: ['expression', 'frameId', 'context'],
  setVariable: ['variablesReference', 'name', 'value'],
  source: ['sourceReference', 'source'],
  exceptionInfo: ['threadId'],
  tensorData: ['expression', 'frameId', 'invocationId', 'side', 'index', 'start', 'count'],
  configurationDone: [],
  completions: ['text', 'column', 'frameId', 'line'],
  breakpointLocations: ['source', 'line', 'endLine', 'column', 'endColumn'],
  loadedSources: [],
  stepInTargets: ['frameId'],
};
/** These may resume the program: fuzzed last in a phase. */
const RESUMING: Record<string, string[]> = {
  continue: ['threadId'],
  next: ['threadId'],
  stepIn: ['threadId', 'targetId'],
  stepOut: ['threadId'],
  pause: ['threadId'],
  restartFrame: ['frameId'],
};

const BAD_VALUES: unknown[] = [null, -1, -(2 ** 31), 1e308, 2 ** 53, 0.5, 'x', '', true, [], {}, 'a'.repeat(10_000)];

/** Whole-argument variants and, per field, each bad value with the others missing. */
function variants(fields: string[]): unknown[] {
  const out: unknown[] = [undefined, null, {}, 'text', [], 42];
  for (const field of fields) for (const value of BAD_VALUES) out.push({ [field]: value });
  // Plausible but out-of-range combinations.
  out.push({
    threadId: THREAD,
    frameId: 10_000_000,
    variablesReference: 10_000_000,
    expression: '1',
    name: 'x',
    value: '1',
    source: {},
    breakpoints: [{ line: 0 }],
    filters: [],
  });
  return out;
}

async function fuzz(s: Session, requests: Record<string, string[]>): Promise<RawOutcome[]> {
  const sent: Promise<RawOutcome>[] = [];
  for (const [command, fields] of Object.entries(requests)) for (const args of variants(fields)) sent.push(rawRequest(s.dc, command, args));
  return Promise.all(sent);
}

function assertAllAnswered(outcomes: RawOutcome[], phase: string): void {
  const unanswered = outcomes
    .filter((o) => !o.answered)
    .map((o) => `${(o as { command: string }).command} ${JSON.stringify((o as { args: unknown }).args)?.slice(0, 80)}`);
  assert.deepEqual(unanswered, [], `${phase}: requests with no response`);
  for (const o of outcomes) {
    if (!o.answered || o.response.success) continue;
    assert.ok(o.response.message && o.response.message.length > 5, `${phase}: ${o.response.command} failed without a message: ${JSON.stringify(o.response)}`);
    assert.doesNotMatch(o.response.message, /^\s*at /m, `${phase}: ${o.response.command}: a message, not a stack`);
  }
}

async function stopInHold(s: Session, args: string[] = []): Promise<DebugProtocol.StackFrame> {
  await s.launch({ program: HOSTILE, args }, (dc) => dc.setBreakpointsRequest({ source: { path: HOSTILE }, breakpoints: [{ line: STOP_LINE }] }));
  await s.stopped();
  const top = (await s.stack())[0]!;
  assert.equal(top.line, STOP_LINE);
  return top;
}

describe('every request gets a response', () => {
  test('setBreakpoints with line 0, negative, null or not a number: those unverified with why, the good one set', T, () =>
    withSession(async (s) => {
      let answer: DebugProtocol.SetBreakpointsResponse | undefined;
      await s.launch({ program: HOSTILE }, async (dc) => {
        answer = await dc.setBreakpointsRequest({
          source: { path: HOSTILE },
          breakpoints: [{ line: 0 }, { line: -3 }, { line: null as never }, { line: 'x' as never }, { line: STOP_LINE }],
        });
      });
      const bps = answer!.body.breakpoints;
      assert.equal(bps.length, 5);
      for (const bp of bps.slice(0, 4)) {
        assert.equal(bp.verified, false);
        assert.match(bp.message ?? '', /is not a line number \(lines start at 1\)/);
      }
      // The good one is set (verified once its script loads): the program stops there.
      assert.ok(bps[4]!.id !== undefined && !/not a line number/.test(bps[4]!.message ?? ''), JSON.stringify(bps[4]));
      await s.stopped();
      assert.equal((await s.stack())[0]!.line, STOP_LINE);
    }),
  );

  test('fuzzed arguments while paused, while running and after the exit: each answered, the session works after', T, () =>
    withSession(async (s) => {
      const top = await stopInHold(s);
      assertAllAnswered(await fuzz(s, REQUESTS), 'paused');
      // Still paused where it was, and evaluate works in the frame.
      assert.equal((await s.stack())[0]!.line, STOP_LINE);
      assert.equal((await s.evaluate('factor * 3', top.id)).result, '21');

      assertAllAnswered(await fuzz(s, RESUMING), 'paused, resuming requests');
      // Running (or stopped again by a step): everything still answers.
      assertAllAnswered(await fuzz(s, { ...REQUESTS, ...RESUMING }), 'after resuming');
      await s.dc.continueRequest({ threadId: THREAD }).catch(() => undefined);
      await s.terminated();
      assertAllAnswered(await fuzz(s, { ...REQUESTS, ...RESUMING }), 'after the exit');
      const after = await rawRequest(s.dc, 'stackTrace', { threadId: THREAD });
      assert.ok(after.answered, 'a valid stackTrace answers after the exit');
    }),
  );

  test('stackTrace at the instant the debuggee dies, and after: answered', T, () =>
    withSession(async (s) => {
      await stopInHold(s);
      await s.waitForOutput(/PIDS debuggee=\d+/, 'stdout');
      const pid = Number(/PIDS debuggee=(\d+)/.exec(s.output('stdout'))![1]);
      const during = [rawRequest(s.dc, 'stackTrace', { threadId: THREAD }), rawRequest(s.dc, 'scopes', { frameId: 1 })];
      process.kill(pid, 'SIGKILL');
      const dying = Array.from({ length: 5 }, () => rawRequest(s.dc, 'stackTrace', { threadId: THREAD }));
      assertAllAnswered(await Promise.all([...during, ...dying]), 'at the death');
      await s.terminated();
      const after = await rawRequest(s.dc, 'stackTrace', { threadId: THREAD });
      assert.ok(after.answered && (after.response.success ? (after.response.body as DebugProtocol.StackTraceResponse['body']).stackFrames.length === 0 : true));
    }),
  );

  test('variables with count 10M answers with a capped page; the rest is reachable page by page', T, () =>
    withSession(async (s) => {
      const top = await stopInHold(s);
      const locals = await s.scope(top.id, 'Locals');
      const big = locals.get('big');
      assert.equal(big.indexedVariables, 10_000_000);
      const page = await s.variables(big.variablesReference, 0, 10_000_000);
      assert.ok(page.list.length > 0 && page.list.length <= 10_000, `a capped page, got ${page.list.length}`);
      assert.equal(page.get('[1]').value, '7');
      const later = await s.variables(big.variablesReference, 9_999_998, 10_000_000);
      assert.deepEqual(
        later.list.map((v) => v.name),
        ['[9999998]', '[9999999]'],
      );
    }),
  );
});

describe("the adapter's own requests check their arguments as the standard ones do", () => {
  /** Each custom request, with the fields it needs named in its error. */
  const CUSTOM: Record<string, RegExp> = {
    tensorData: /^tensorData needs arguments \(expression, invocationId, or graph and node\); it got (none|null)\./,
    tensorBytes: /^tensorBytes needs arguments \(invocationId, or graph and node\); it got (none|null)\./,
    graphWatch: /^graphWatch needs arguments \(on\); it got (none|null)\./,
    nodeInfo: /^nodeInfo needs arguments \(graph, node\); it got (none|null)\./,
    toggleSkipFile: /^toggleSkipFile needs arguments \(path\); it got (none|null)\./,
  };

  test('no arguments, null, {}, or a field of the wrong type: each says what it needs, none reads a property of undefined', T, () =>
    withSession(async (s) => {
      const top = await stopInHold(s);
      const message = async (command: string, args: unknown): Promise<string> => {
        const o = await rawRequest(s.dc, command, args);
        assert.ok(o.answered, `${command} ${JSON.stringify(args)} was not answered`);
        assert.equal(o.response.success, false, `${command} ${JSON.stringify(args)} should fail`);
        assert.doesNotMatch(o.response.message ?? '', /Cannot read properties|undefined \(reading/, `${command} ${JSON.stringify(args)}`);
        return o.response.message ?? '';
      };
      for (const [command, needs] of Object.entries(CUSTOM)) {
        assert.match(await message(command, undefined), needs);
        assert.match(await message(command, null), needs);
        assert.match(await message(command, 'text'), new RegExp(`^${command}'s arguments must be an object, not the string "text"`));
      }
      assert.match(await message('tensorData', {}), /^tensorData needs expression, invocationId, or graph and node; it got none of them\./);
      assert.match(await message('tensorData', { graph: 'g' }), /^tensorData needs expression, invocationId, or graph and node; it got none of them\./);
      assert.match(
        await message('tensorData', { invocationId: 1, side: 'sideways' }),
        /^tensorData: "side" must be "inputs" or "outputs", not the string "sideways"/,
      );
      assert.match(await message('tensorData', { invocationId: 0.5 }), /^tensorData: "invocationId" must be a whole number, not number 0\.5/);
      assert.match(await message('tensorBytes', { offset: 0, count: 8 }), /^tensorBytes needs invocationId, or graph and node; it got none of them\./);
      assert.match(await message('tensorBytes', { invocationId: 1, offset: -1 }), /^tensorBytes: "offset" must be a whole number ≥ 0, not number -1/);
      assert.match(await message('graphWatch', { on: 'yes' }), /^graphWatch: "on" must be true or false/);
      assert.match(await message('toggleSkipFile', { path: 3 }), /^toggleSkipFile: "path" must be a string, not number 3/);
      // The session still answers, and a well-formed tensorData still reads.
      assert.equal((await s.evaluate('factor', top.id)).result, '7');
      const page = (await rawRequest(s.dc, 'tensorData', { expression: 'new Float32Array([1, 2, 3])', count: 2 })) as { response: DebugProtocol.Response };
      assert.equal(page.response.success, true, page.response.message);
      assert.deepEqual((page.response.body as { values: number[] }).values, [1, 2]);
    }),
  );
});

describe('attach to a WebSocket that is no inspector', () => {
  /** An HTTP server listing one node target whose WebSocket does `behaviour`. */
  async function badInspector(behaviour: 'garbage' | 'silent'): Promise<{ port: number; close: () => void }> {
    const server = http.createServer((_req, res) => {
      const { port } = server.address() as { port: number };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify([{ type: 'node', webSocketDebuggerUrl: `ws://127.0.0.1:${port}/bad` }]));
    });
    const wss = new WebSocketServer({ server });
    wss.on('connection', (ws) => {
      if (behaviour === 'garbage') ws.on('message', () => ws.send('this is not JSON {'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      port: (server.address() as { port: number }).port,
      close: () => {
        for (const c of wss.clients) c.terminate();
        wss.close();
        server.close();
      },
    };
  }

  async function attachTo(s: Session, port: number): Promise<RawOutcome> {
    await rawRequest(s.dc, 'initialize', { adapterID: 'tfjs-callbacks', pathFormat: 'path', linesStartAt1: true, columnsStartAt1: true });
    const attached = rawRequest(s.dc, 'attach', { port });
    await rawRequest(s.dc, 'configurationDone', {});
    return attached;
  }

  test('one that answers with non-JSON: a clear error, and the adapter lives on', T, () =>
    withSession(async (s) => {
      const bad = await badInspector('garbage');
      try {
        const outcome = await attachTo(s, bad.port);
        assert.ok(outcome.answered, 'attach is answered');
        assert.equal(outcome.response.success, false);
        assert.match(outcome.response.message ?? '', /Cannot attach: .*not CDP JSON \("this is not JSON \{"\)/);
        const threads = await rawRequest(s.dc, 'threads', undefined);
        assert.ok(threads.answered && threads.response.success, 'the adapter still answers');
      } finally {
        bad.close();
      }
    }),
  );

  test('one that never answers: a timeout that says so', T, () =>
    withSession(async (s) => {
      const bad = await badInspector('silent');
      try {
        const outcome = await attachTo(s, bad.port);
        assert.ok(outcome.answered, 'attach is answered');
        assert.equal(outcome.response.success, false);
        assert.match(
          outcome.response.message ?? '',
          /Cannot attach: the inspector at 127\.0\.0\.1:\d+ did not complete the handshake: .*no answer from the debuggee within 10 s/,
        );
        const threads = await rawRequest(s.dc, 'threads', undefined);
        assert.ok(threads.answered && threads.response.success, 'the adapter still answers');
      } finally {
        bad.close();
      }
    }),
  );
});
