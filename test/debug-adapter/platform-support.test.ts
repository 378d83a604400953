/**
 * Windows has no process groups, which is how a launched program and the processes it starts are
 * ended (debuggee/launcher.ts, bridge.ts): a launch there is refused with why and what to use
 * instead, before anything starts. The real adapter, made to take this machine for Windows.
 */
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { debugTerminalUnsupported, launchUnsupported } from '../../debug-adapter/platform-support.js';
import { fixture, useDebugAdapter, withSession } from '../helpers/dap.js';

useDebugAdapter();

const NUMPY = fixture('numpy-program.ts');

describe('process groups, missing on Windows', () => {
  test('a launch and the Debug Terminal are refused on Windows only, saying why and what works instead', () => {
    for (const message of [launchUnsupported('win32'), debugTerminalUnsupported('win32')]) {
      assert.match(message ?? '', /on Windows: it ends a program, and the processes it started, through their process group/);
      assert.match(message ?? '', /WSL/);
      assert.match(message ?? '', /"request": "attach"/);
    }
    for (const platform of ['linux', 'darwin'] as const) {
      assert.equal(launchUnsupported(platform), undefined);
      assert.equal(debugTerminalUnsupported(platform), undefined);
    }
  });

  test('an adapter on Windows answers a launch with the refusal and starts no program', { timeout: 60_000 }, () =>
    withSession(
      async (s) => {
        await assert.rejects(s.launch({ program: NUMPY }), (err: Error) => {
          assert.match(err.message, /^Cannot launch: the TF\.js Callbacks debugger does not launch programs on Windows/);
          return true;
        });
        assert.equal(s.output('stdout'), '', 'no program ran (numpy-program.ts prints as it runs)');
        assert.ok(!s.events.some((e) => e.event === 'process' || e.event === 'exited'), `no process started: ${s.summary()}`);
      },
      { NODE_OPTIONS: `--import ${pathToFileURL(fixture('pretend-windows.mjs')).href}` },
    ),
  );
});
