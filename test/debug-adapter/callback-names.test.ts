/**
 * Function breakpoints and breakOnCallbacks entries that name no callback do not fail silently:
 * unverified with a message, a `changed` event listing the callbacks the program registered
 * (closest first) as they come, a warning in the Debug Console once; a name that comes to match
 * is verified. Real adapter, real debuggee, real TF.js.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { fixture, useDebugAdapter, withSession } from '../helpers/dap.js';

useDebugAdapter();

const NUMPY = fixture('numpy-program.ts');
const T = { timeout: 60_000 };

describe('names no callback answers to', () => {
  test('a typo is unverified with the known callbacks listed closest first, and warned about once; a right name becomes verified', T, () =>
    withSession(async (s) => {
      let set: DebugProtocol.SetFunctionBreakpointsResponse | undefined;
      await s.launch({ program: NUMPY }, async (dc) => {
        set = await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'log_hubr' }, { name: 'no_such_callback' }, { name: 'bad_dtype' }] });
        await dc.setExceptionBreakpointsRequest({ filters: [] });
      });
      // Before the program has run, nothing answers to any name yet.
      const [typo, unknown, right] = set!.body.breakpoints;
      assert.ok(typo?.id !== undefined && unknown?.id !== undefined && right?.id !== undefined, JSON.stringify(set!.body));
      for (const bp of [typo, unknown, right]) {
        assert.equal(bp.verified, false);
        assert.match(bp.message ?? '', /No callback or model node has answered to '\w+' yet/);
      }
      await s.waitFor('stopped'); // bad_dtype
      const changes = (id: number) =>
        s
          .all('breakpoint')
          .map((e) => e.body.breakpoint as DebugProtocol.Breakpoint)
          .filter((b) => b.id === id);
      assert.equal(changes(right.id).at(-1)?.verified, true, 'bad_dtype binds once the program has it');
      const typoNow = changes(typo.id).at(-1)!;
      assert.equal(typoNow.verified, false);
      assert.match(
        typoNow.message ?? '',
        /^No callback or model node answers to 'log_hubr' \(by name, token, JS function name, node name or op\)\. Callbacks so far, closest first: log_huber \(pyfunc_1\), /,
      );
      assert.match(typoNow.message ?? '', /scale_rows \(pyfunc_0\)/);
      assert.match(changes(unknown.id).at(-1)?.message ?? '', /^No callback or model node answers to 'no_such_callback'/);

      // The typo is close to a callback's name: warned about as soon as that callback is known.
      const console = () => s.output('console');
      assert.match(
        console(),
        /Function breakpoint 'log_hubr' matches no callback or model node\. Did you mean 'log_huber'\? Callbacks so far, closest first: log_huber \(pyfunc_1\), scale_rows \(pyfunc_0\)/,
      );
      assert.doesNotMatch(console(), /'no_such_callback'/, 'a name like none of them waits for the end: the program may still register it');
      await s.dc.continueRequest({ threadId: 1 });
      await s.terminated();
      assert.equal(console().match(/'log_hubr' matches no callback/g)?.length, 1, `once: ${console()}`);
      const final = /Function breakpoint 'no_such_callback' matched no callback or model node in this run\. Callbacks so far, closest first: ([^.]*)\./.exec(
        console(),
      );
      assert.ok(final, console());
      assert.deepEqual(final[1]!.split(', ').sort(), ['bad_dtype (pyfunc_2)', 'log_huber (pyfunc_1)', 'scale_rows (pyfunc_0)']);
      assert.equal(console().match(/'no_such_callback'/g)?.length, 1, `once: ${console()}`);
      assert.doesNotMatch(console(), /'bad_dtype' match/);
    }),
  );

  test('a breakOnCallbacks entry with a typo is warned about in the Debug Console', T, () =>
    withSession(async (s) => {
      await s.launch({ program: NUMPY, breakOnCallbacks: ['scale_row'], breakOnToutMismatch: false });
      await s.terminated();
      assert.equal(s.all('stopped').length, 0, s.summary());
      assert.match(s.output('console'), /breakOnCallbacks entry 'scale_row' matches no callback\. Did you mean 'scale_rows'\?/);
    }),
  );

  test("a model's callback nodes are known when it loads: a typo of a node's name is reported then", T, () =>
    withSession(async (s) => {
      let set: DebugProtocol.SetFunctionBreakpointsResponse | undefined;
      await s.launch({ model: 'examples/models/standardize/model.json', callbacks: 'examples/callbacks/standardize.ts' }, async (dc) => {
        set = await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'standardise' }] });
      });
      const id = set!.body.breakpoints[0]!.id!;
      await s.waitFor('breakpoint', (e) => e.body.breakpoint.id === id && /Callbacks so far/.test(e.body.breakpoint.message ?? ''));
      await s.waitForOutput(/Function breakpoint 'standardise' matches no callback or model node\. Did you mean 'standardize'\?/, 'console');
      await s.terminated();
      assert.equal(s.all('stopped').length, 0, s.summary());
    }),
  );

  test('a function breakpoint set at a stop on a callback already registered is verified at once', T, () =>
    withSession(async (s) => {
      await s.launch({ program: NUMPY }, (dc) => dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'log_huber' }] }));
      assert.equal((await s.stopped()).body.reason, 'function breakpoint');
      const r = await s.dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'scale_rows' }, { name: 'pyfunc_1' }, { name: 'scale' }] });
      assert.deepEqual(
        r.body.breakpoints.map((b) => b.verified),
        [true, true, false],
      );
      assert.match(
        r.body.breakpoints[2]!.message ?? '',
        /^No callback or model node answers to 'scale'.*closest first: scale_rows \(pyfunc_0\), log_huber \(pyfunc_1\)/,
      );
    }),
  );
});
