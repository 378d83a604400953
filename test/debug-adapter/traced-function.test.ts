/**
 * Paused inside a tfFunction during its first call (the trace): the debugger's reads of traced
 * tensors (their summaries, a page of values) are not the function's, so they are neither refused
 * as host reads nor recorded into its graph. Real adapter, real program.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lineOf } from '../helpers/markers.js';
import { fixture, THREAD, useDebugAdapter, withSession } from '../helpers/dap.js';

useDebugAdapter();

const program = fixture('traced-program.ts');

test('reading a traced tensor while paused in the trace: its summary and values, and the graph stays the function’s', { timeout: 60_000 }, () =>
  withSession(async (s) => {
    await s.launch({ program });
    const stop = await s.stopped();
    assert.equal(stop.body.description, 'Paused on debugger statement');
    const [top] = await s.stack();
    assert.equal(top?.line, lineOf(program, '@paused-in-trace'));
    const locals = await s.scope(top!.id, 'Locals');
    assert.match(locals.get('doubled').value, /^Tensor float32\[3\] min=2 max=6 mean=4$/);
    const rows = await s.variables(locals.get('doubled').variablesReference);
    const values = await s.variables(rows.get('values').variablesReference);
    assert.deepEqual(
      values.list.map((v) => v.value),
      ['2', '4', '6'],
    );
    await s.dc.continueRequest({ threadId: THREAD });
    assert.equal((await s.terminated())?.body.exitCode, 0, s.output());
    assert.match(s.output('stdout'), /result 3,5,7 kernels Multiply,Add\n/, 'no TraceError, and none of the debugger’s kernels in the graph');
  }),
);
