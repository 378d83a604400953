/**
 * The adapter as VS Code runs it: in the extension host's own process (a
 * `DebugAdapterInlineImplementation` around `createInlineSession()`), DAP messages passed as
 * objects. Importing the built adapter starts nothing; a whole session (launch, a function
 * breakpoint's stop, the stack, continue, the program's end) runs through `handleMessage` /
 * `onDidSendMessage`; and the host process is left as it was: no exit, no new process listeners,
 * nothing read from its stdin. Real built adapter, real debuggee, real TF.js.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { adapterMain, fixture, useDebugAdapter, WAIT_MS } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const NUMPY = fixture('numpy-program.ts');

type Message = DebugProtocol.ProtocolMessage & Partial<DebugProtocol.Response & DebugProtocol.Event>;

/** A DAP client for an in-process adapter, as VS Code's inline implementation drives it. */
class InlineClient {
  private seq = 1;
  readonly messages: Message[] = [];
  private readonly waiters: { test: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];

  constructor(private readonly adapter: { handleMessage(m: DebugProtocol.ProtocolMessage): void; onDidSendMessage(l: (m: Message) => void): unknown }) {
    adapter.onDidSendMessage((m) => {
      this.messages.push(m);
      for (const w of this.waiters.splice(0)) {
        if (w.test(m)) w.resolve(m);
        else this.waiters.push(w);
      }
    });
  }

  next(test: (m: Message) => boolean, what: string): Promise<Message> {
    const seen = this.messages.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${what} within ${WAIT_MS} ms; got: ${this.messages.map((m) => m.command ?? m.event).join(', ')}`)),
        WAIT_MS,
      );
      this.waiters.push({ test, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  }

  event(name: string): Promise<Message> {
    return this.next((m) => m.type === 'event' && m.event === name, `'${name}' event`);
  }

  async request(command: string, args?: unknown): Promise<Message> {
    const seq = this.seq++;
    this.adapter.handleMessage({ seq, type: 'request', command, arguments: args } as DebugProtocol.Request);
    const response = await this.next((m) => m.type === 'response' && (m as DebugProtocol.Response).request_seq === seq, `response to ${command}`);
    assert.ok(response.success, `${command} failed: ${response.message} ${JSON.stringify(response.body ?? {})}`);
    return response;
  }
}

test('the built adapter runs a whole session inside the host process, and leaves the process as it was', { timeout: 90_000 }, async () => {
  const listeners = () => ({
    exit: process.listenerCount('exit'),
    unhandledRejection: process.listenerCount('unhandledRejection'),
    uncaughtException: process.listenerCount('uncaughtException'),
    stdinData: process.stdin.listenerCount('data'),
  });
  const before = listeners();
  const realExit = process.exit;
  let exitCalled = false;
  process.exit = ((code?: number) => {
    exitCalled = true;
    throw new Error(`the adapter called process.exit(${code})`);
  }) as typeof process.exit;
  try {
    const mod = (await import(pathToFileURL(adapterMain).href)) as {
      createInlineSession: () => ConstructorParameters<typeof InlineClient>[0] & { dispose(): void };
    };
    assert.deepEqual(listeners(), before, 'importing the adapter installs no process listener and reads no stdin');
    const session = mod.createInlineSession();
    const dc = new InlineClient(session);
    await dc.request('initialize', { adapterID: 'tfjs-callbacks', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
    await dc.event('initialized');
    await dc.request('setFunctionBreakpoints', { breakpoints: [{ name: 'scale_rows' }] });
    await dc.request('setExceptionBreakpoints', { filters: [] });
    await dc.request('configurationDone');
    await dc.request('launch', { program: NUMPY, backend: 'cpu', env: { NODE_TEST_CONTEXT: null, NODE_OPTIONS: null } });
    const stopped = await dc.event('stopped');
    assert.equal(stopped.body?.reason, 'function breakpoint');
    const stack = await dc.request('stackTrace', { threadId: 1 });
    const top = (stack.body as DebugProtocol.StackTraceResponse['body']).stackFrames[0]!;
    assert.equal(top.name, 'scale_rows');
    assert.equal(top.line, lineOf(NUMPY, '@scale-rows-body') - 1, 'the stop is at the callback’s first line');
    await dc.request('setFunctionBreakpoints', { breakpoints: [] });
    await dc.request('continue', { threadId: 1 });
    const exited = await dc.event('exited');
    await dc.event('terminated');
    const stdout = dc.messages
      .filter((m) => m.event === 'output' && (m.body as DebugProtocol.OutputEvent['body']).category === 'stdout')
      .map((m) => (m.body as DebugProtocol.OutputEvent['body']).output)
      .join('');
    assert.match(stdout, /scaled 2,4,6,8,10,12/, 'the program ran on after the stop');
    assert.equal(typeof (exited.body as DebugProtocol.ExitedEvent['body']).exitCode, 'number');
    await dc.request('disconnect', {});
    session.dispose();
    // The library's shutdown exits the process only when it is not running inline; give it its delay.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(exitCalled, false, 'the adapter never exits the host process');
    assert.deepEqual(listeners(), before, 'the session left no process listener behind');
  } finally {
    process.exit = realExit;
  }
});
