/**
 * Steps in training code users write (test/fixtures/shapes/layer-steps/train.js: a custom
 * `tf.layers.Layer` trained with `model.fit`, a `tf.tidy` in its `call()`, a numpy callback),
 * in a fresh project with its own package.json and installs, under the real adapter. A step that
 * leaves the program's frame for TF.js lands on the next line of the program's own code that runs:
 * the caller when it is the program's, else the next entry (the next batch's `call()`, the code
 * after `await model.fit`). Counts, not times: which line, which call (the program's `calls`).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { tempDir } from '../fixtures/callback-models.js';
import { repoRoot } from '../fixtures/spawn.js';
import { describeFrames, Session, THREAD, useDebugAdapter } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';
import { makeUserProject, TFJS_VERSION, type UserProject } from '../helpers/projects.js';
import fs from 'node:fs';

useDebugAdapter();
const { dir: root, cleanup } = tempDir('stepping-shapes-');
after(cleanup);

const T = { timeout: 120_000 };
let project: UserProject;
let program: string;
const at = (marker: string): number => lineOf(program, marker);

before(() => {
  project = makeUserProject(path.join(root, 'layer-steps'), { dependencies: { '@tensorflow/tfjs': TFJS_VERSION }, withRuntime: true });
  program = project.write('train.js', fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', 'shapes', 'layer-steps', 'train.js'), 'utf8'));
});

interface Stepper {
  readonly s: Session;
  /** Sends a step and returns the top frame of the stop it makes, with the whole stack. */
  step(kind: 'next' | 'stepIn' | 'stepOut'): Promise<{ top: DebugProtocol.StackFrame; frames: DebugProtocol.StackFrame[]; reason: string }>;
  /** The program's `calls` (how many times call() has run) where it stands. */
  calls(): Promise<number>;
}

/** Launches the program with a breakpoint at `marker` (or a function breakpoint) and runs `body` from its first stop. */
async function from(
  marker: string,
  body: (st: Stepper) => Promise<void>,
  options: { args?: string[]; skipFiles?: string[]; functionBreakpoint?: string; env?: Record<string, string> } = {},
): Promise<void> {
  const s = await Session.start(options.env);
  try {
    const line = at(marker);
    await s.launch({ program, cwd: project.dir, args: options.args ?? [], ...(options.skipFiles ? { skipFiles: options.skipFiles } : {}) }, async (dc) => {
      if (options.functionBreakpoint) await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: options.functionBreakpoint }] });
      else await dc.setBreakpointsRequest({ source: { path: program }, breakpoints: [{ line }] });
    });
    await s.stopped();
    const first = (await s.stack())[0]!;
    assert.equal(first.line, line, `the first stop is at ${marker}`);
    // Only the steps' own stops from here on.
    await s.dc.setBreakpointsRequest({ source: { path: program }, breakpoints: [] });
    await s.dc.setFunctionBreakpointsRequest({ breakpoints: [] });
    await body({
      s,
      async step(kind) {
        if (kind === 'next') await s.dc.nextRequest({ threadId: THREAD });
        else if (kind === 'stepIn') await s.dc.stepInRequest({ threadId: THREAD });
        else await s.dc.stepOutRequest({ threadId: THREAD });
        const stop = await s.stopped();
        const frames = await s.stack();
        return { top: frames[0]!, frames, reason: stop.body.reason };
      },
      async calls() {
        const frames = await s.stack();
        return Number((await s.evaluate('calls', frames[0]!.id)).result);
      },
    });
  } finally {
    await s.close();
  }
}

/** A stop on a line of the program's own file, shown plainly (not a library frame). */
function assertInProgram(top: DebugProtocol.StackFrame, frames: DebugProtocol.StackFrame[], line: number | readonly number[], name?: string): void {
  assert.equal(top.source?.path, program, `stopped outside the program:\n  ${describeFrames(frames)}`);
  assert.notEqual(top.presentationHint, 'subtle', describeFrames(frames));
  const lines = typeof line === 'number' ? [line] : line;
  assert.ok(lines.includes(top.line), `stopped at line ${top.line}, expected ${lines.join(' or ')}:\n  ${describeFrames(frames)}`);
  if (name) assert.equal(top.name, name, describeFrames(frames));
}

describe('steps in a custom layer trained with model.fit', () => {
  test("Step Out of call() lands in the next batch's call(), not in tfjs-layers or Node's internals", T, () =>
    from('@call-first', async (st) => {
      const before = await st.calls();
      for (let i = 1; i <= 2; i++) {
        const { top, frames, reason } = await st.step('stepOut');
        assert.equal(reason, 'step');
        assertInProgram(top, frames, at('@call-first'), 'call');
        assert.equal(await st.calls(), before + i, 'the next call(), before its first line ran (which counts it)');
        // Run its first line, so the next Step Out is from inside call() again.
        await st.step('next');
      }
    }),
  );

  test('Step Into on a line of call() that calls only TF.js ops goes to the next line of call()', T, () =>
    from('@call-matmul', async (st) => {
      const before = await st.calls();
      const { top, frames } = await st.step('stepIn');
      assertInProgram(top, frames, at('@call-tidy'), 'call');
      assert.equal(await st.calls(), before, 'the same call()');
    }),
  );

  test("Step Into on tf.tidy's line enters the program's own function that tf.tidy calls", T, () =>
    from('@call-tidy', async (st) => {
      const { top, frames } = await st.step('stepIn');
      assertInProgram(top, frames, at('@tidy-first'));
    }),
  );

  test("Step Into on a line of a tf.tidy body that calls nothing is V8's own step: the next line, no breakpoint armed", T, () => {
    const log = path.join(root, 'cdp-no-call.log');
    return from(
      '@tidy-no-call',
      async (st) => {
        const before = cdpCommands(log, 'Debugger.setBreakpoint"');
        const { top, frames } = await st.step('stepIn');
        assertInProgram(top, frames, at('@tidy-last'));
        assert.equal(cdpCommands(log, 'Debugger.setBreakpoint"'), before, 'the step set breakpoints');
        assert.equal(cdpCommands(log, 'Debugger.stepInto"') > 0, true, "the step was not V8's stepInto");
      },
      { env: { TFJS_CALLBACKS_CDP_LOG: log } },
    );
  });

  test("Step Over at the end of a tf.tidy body returns into call(), then to the next batch's call()", T, () =>
    from('@tidy-last', async (st) => {
      const before = await st.calls();
      // The body's return, then call()'s own line after tf.tidy returned.
      let stop = await st.step('next');
      for (let i = 0; i < 2 && stop.top.name !== 'call'; i++) {
        assertInProgram(stop.top, stop.frames, [at('@tidy-last'), at('@tidy-end')]);
        stop = await st.step('next');
      }
      assertInProgram(stop.top, stop.frames, [at('@call-tidy'), at('@tidy-end')], 'call');
      // call() returns into tfjs-layers: the next line of the program that runs is the next batch's call().
      for (let i = 0; i < 2 && stop.top.line !== at('@call-first'); i++) stop = await st.step('next');
      assertInProgram(stop.top, stop.frames, at('@call-first'), 'call');
      assert.equal(await st.calls(), before, 'the next call(), before its first line ran');
    }),
  );

  test('Step Into at the end of a tf.tidy body lands back in call()', T, () =>
    from('@tidy-last', async (st) => {
      let stop = await st.step('stepIn');
      for (let i = 0; i < 2 && stop.top.name !== 'call'; i++) stop = await st.step('stepIn');
      assertInProgram(stop.top, stop.frames, [at('@call-tidy'), at('@tidy-end')], 'call');
    }),
  );

  test('Step Out of the last batch\'s call() lands after "await model.fit" in main()', T, () =>
    from(
      '@call-first',
      async (st) => {
        const { top, frames } = await st.step('stepOut');
        assertInProgram(top, frames, at('@after-fit'), 'main');
        assert.equal(await st.calls(), 1, 'one batch of one epoch');
      },
      { args: ['--epochs', '1', '--batch_size', '16'] },
    ),
  );
});

describe('steps in a numpy callback', () => {
  test('Step Out of the callback lands in main() at the call, through the runtime', T, () =>
    from('@standardize-first', async (st) => {
      const { top, frames } = await st.step('stepOut');
      assertInProgram(top, frames, [at('@call-standardize'), at('@after-standardize')], 'main');
    }),
  );

  test("Step Over past the callback's end lands in main()", T, () =>
    from('@standardize-last', async (st) => {
      let stop = await st.step('next');
      for (let i = 0; i < 2 && stop.top.name === 'standardize'; i++) stop = await st.step('next');
      assertInProgram(stop.top, stop.frames, [at('@call-standardize'), at('@after-standardize')], 'main');
    }),
  );

  test("Step Into on the callback's line that calls library code goes to its next line", T, () =>
    from(
      '@standardize-first',
      async (st) => {
        const { top, frames } = await st.step('stepIn');
        assertInProgram(top, frames, at('@standardize-first') + 1, 'standardize');
      },
      { functionBreakpoint: 'standardize' },
    ),
  );
});

describe('skipFiles', () => {
  test('with node_modules taken out of skipFiles, Step Into goes into TF.js', T, () =>
    from(
      '@call-matmul',
      async (st) => {
        const { top, frames } = await st.step('stepIn');
        assert.match(top.source?.path ?? '', /node_modules[\\/]@tensorflow[\\/]/, describeFrames(frames));
      },
      { skipFiles: ['<node_internals>/**'] },
    ),
  );

  test('Toggle Skipping this File takes one file back: Step Into then goes into it', T, () =>
    from('@call-matmul', async (st) => {
      const core = path.join(project.dir, 'node_modules', '@tensorflow', 'tfjs-core', 'dist', 'tf-core.node.js');
      const toggled = await st.s.dc.customRequest('toggleSkipFile', { path: core });
      assert.deepEqual(toggled.body, { skipped: false });
      const { top, frames } = await st.step('stepIn');
      assert.equal(top.source?.path, core, describeFrames(frames));
    }),
  );

  test('a skipFiles that is not a list of globs is refused with what to write', T, async () => {
    const s = await Session.start();
    try {
      const failed = await s.dc.launch({ program, cwd: project.dir, skipFiles: '**/node_modules/**' }).then(
        () => undefined,
        (err: Error) => err.message,
      );
      assert.match(failed ?? '', /"skipFiles" must be a list of glob patterns/);
    } finally {
      await s.close();
    }
  });
});

/** How many CDP commands the adapter sent whose text holds `method` (TFJS_CALLBACKS_CDP_LOG's file). */
function cdpCommands(log: string, method: string): number {
  const text = fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '';
  return text.split('\n').filter((line) => / > /.test(line) && line.includes(`"method":"${method}`)).length;
}
