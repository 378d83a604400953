/**
 * "Where the NaN was born" in training programs of the shapes users have (test/fixtures/shapes/
 * nan-births): a custom loss in another TypeScript module (log of a ReLU's 0), a learning rate that
 * overflows a Dense layer, a custom layer whose gradient is 1/0 (sqrt at 0), a tf.data map that
 * parses "n/a" into NaN. One fresh project (its own package.json and installs, this package from
 * its `npm pack` tarball), each program run plainly, under `tfjs-callbacks run --find-nan` and under
 * the real adapter with "NaN/Inf in any op" (both on cpu, as plain node runs TF.js): the same exit code and program output; the first
 * birth named the same way by the CLI and the stop; the op's frame at the program's line, the
 * first VS Code shows of the program's.
 * Wall times are printed as ratios to the plain run, never asserted.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { tempDir } from '../fixtures/callback-models.js';
import { cleanEnv, repoRoot } from '../fixtures/spawn.js';
import { firstUserFrame, Session, THREAD, useDebugAdapter } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';
import { makeUserProject, TFJS_VERSION, type UserProject } from '../helpers/projects.js';

useDebugAdapter();
const { dir: root, cleanup } = tempDir('nan-births-');
after(cleanup);

interface BirthCase {
  readonly name: string;
  readonly program: string;
  /** Node's options before the program for the plain run (TypeScript runs through tsx, as users run it). */
  readonly node: readonly string[];
  /** The first birth, in the CLI's and the stop's words. */
  readonly first: RegExp;
  /** Where the stop's top frame is: a file of the project and a marker in it. */
  readonly frame: { readonly file: string; readonly marker: string; readonly name: RegExp };
  /** Rows of the Op scope. */
  readonly scope: Record<string, RegExp>;
}

const CASES: readonly BirthCase[] = [
  {
    name: '(a) a custom loss in another module takes the log of a ReLU’s 0',
    program: 'train.ts',
    node: ['--import', 'tsx'],
    first: /^first Inf: op `Log` \(forward, epoch 1 batch 1\) at loss\.ts:\d+:\d+, input 0 has 2 zeros$/,
    frame: { file: 'loss.ts', marker: '@log', name: /^Log \(forward\)$/ },
    scope: {
      op: /^Log$/,
      pass: /^forward$/,
      fit: /^epoch 1, batch 1$/,
      'x (input 0)': /min=0 max=2/,
      'output 0': /\(2 −Inf\)/,
      'first non-finite': /^−Inf at output 0\[1, 0\]/,
    },
  },
  {
    name: '(b) a learning rate of 1e18 overflows a Dense layer in batch 2',
    program: 'overflow.cjs',
    node: [],
    first: /^first (Inf|NaN and Inf): op `fusedMatMul` \(forward, layer `out`, epoch 1 batch 2\) at overflow\.cjs:\d+:\d+, /,
    frame: { file: 'overflow.cjs', marker: '@fit', name: /^fusedMatMul \(forward, layer out\)$/ },
    scope: { layer: /^out \(Dense\)$/, pass: /^forward$/, fit: /^epoch 1, batch 2$/ },
  },
  {
    name: '(c) sqrt at 0 in a custom layer: finite forward, Inf in the backward of Sqrt',
    program: 'sqrt-layer.cjs',
    node: [],
    first:
      /^first NaN and Inf: op `RealDiv` \(backward of `Sqrt` at sqrt-layer\.cjs:\d+:\d+, layer `soft_sqrt`, epoch 1 batch 1\) at sqrt-layer\.cjs:\d+:\d+, /,
    frame: { file: 'sqrt-layer.cjs', marker: '@sqrt', name: /^RealDiv \(backward of Sqrt, layer soft_sqrt\)$/ },
    scope: { pass: /^backward of Sqrt \(forward at sqrt-layer\.cjs:\d+:\d+\)$/, layer: /^soft_sqrt \(SoftSqrt\)$/ },
  },
  {
    name: '(d) a tf.data map parses "n/a" into NaN: the tf.tensor1d call that carried it',
    program: 'pipeline.mjs',
    node: [],
    first: /^first NaN: `tf\.tensor1d` made a tensor from the program's data that held 1 NaN, 0 Inf of 2 at pipeline\.mjs:\d+:\d+$/,
    frame: { file: 'pipeline.mjs', marker: '@parse', name: /^tf\.tensor1d \(data\)$/ },
    scope: { op: /^tf\.tensor1d$/, 'output 0': /\(1 NaN\)/, 'first non-finite': /^NaN at output 0\[1\]/ },
  },
];

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

function run(project: UserProject, argv: readonly string[]): Run {
  const started = performance.now();
  const result = spawnSync(process.execPath, argv, { cwd: project.dir, env: cleanEnv(), encoding: 'utf8', timeout: 300_000 });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, ms: performance.now() - started };
}

/** Lines the CLI writes of its own on stdout with --find-nan: anything else there is the program's. */
const OURS = [
  /^\[tfjs-callbacks\] backend: /,
  /^✗ first (NaN|Inf|NaN and Inf): /,
  /^ {4}(input|output) \d+[ :]/,
  /^ {4}its forward op /,
  /^[✓✗⚠] \d+ callback invocations? of \d+ callbacks? · /,
  /^training: \d+ fits? · /,
  /^NaN\/Inf: /,
];
const isOurs = (line: string): boolean => OURS.some((p) => p.test(line));
const lines = (text: string): string[] => text.split('\n').filter((l) => l.trim() !== '');

let project: UserProject;
const timings: string[] = [];
before(() => {
  project = makeUserProject(path.join(root, 'training'), { type: 'module', dependencies: { '@tensorflow/tfjs': TFJS_VERSION }, withRuntime: true });
  const fixtures = path.join(repoRoot, 'test', 'fixtures', 'shapes', 'nan-births');
  for (const file of fs.readdirSync(fixtures)) project.write(file, fs.readFileSync(path.join(fixtures, file), 'utf8'));
});
after(() => {
  if (timings.length) console.log(`# time as a ratio to the plain run (this machine, one run each):\n# ${timings.join('\n# ')}`);
});

const T = { timeout: 240_000 };

for (const c of CASES) {
  describe(c.name, () => {
    let plain: Run;
    before(() => {
      plain = run(project, [...c.node, c.program]);
      assert.equal(plain.status, 0, `${plain.stdout}\n${plain.stderr}`);
    });

    test('tfjs-callbacks run --find-nan: prints the first birth, the program’s output and exit code unchanged (cpu), the same birth on wasm', T, () => {
      const cli = run(project, [path.join(project.dir, 'node_modules', '.bin', 'tfjs-callbacks'), 'run', '--find-nan', '--backend', 'cpu', c.program]);
      timings.push(`${c.program}: CLI --find-nan ${(cli.ms / plain.ms).toFixed(2)}x (${cli.ms.toFixed(0)} / ${plain.ms.toFixed(0)} ms)`);
      assert.equal(cli.status, plain.status, `${cli.stdout}\n${cli.stderr}`);
      assert.deepEqual(
        lines(cli.stdout).filter((l) => !isOurs(l)),
        lines(plain.stdout),
        `the program's own lines, in order:\n${cli.stdout}`,
      );
      const births = lines(cli.stdout).filter((l) => l.startsWith('✗ first '));
      assert.match(births[0]?.slice(2) ?? '', c.first, cli.stdout);
      assert.match(cli.stdout, /^NaN\/Inf: first /m);
      // On wasm (the CLI's auto here): the same first birth; the program's later numbers are wasm's own.
      const wasm = run(project, [path.join(project.dir, 'node_modules', '.bin', 'tfjs-callbacks'), 'run', '--find-nan', '--backend', 'wasm', c.program]);
      assert.equal(wasm.status, 0, `${wasm.stdout}\n${wasm.stderr}`);
      assert.match(
        lines(wasm.stdout)
          .find((l) => l.startsWith('✗ first '))
          ?.slice(2) ?? '',
        c.first,
        wasm.stdout,
      );
    });

    test('under the debugger with "NaN/Inf in any op": stops at the birth, at the program’s line, with the Op scope', T, async () => {
      const file = path.join(project.dir, c.program);
      const frameFile = path.join(project.dir, c.frame.file);
      const started = performance.now();
      const s = await Session.start();
      try {
        await s.launch({ program: file, cwd: project.dir, backend: 'cpu' }, (dc) =>
          dc.setExceptionBreakpointsRequest({ filters: ['toutMismatch', 'opNonFinite'] }),
        );
        const stop = await s.stopped();
        assert.equal(stop.body.reason, 'exception');
        const description = stop.body.description ?? '';
        assert.ok(description.startsWith('NaN/Inf in any op: '), description);
        assert.match(description.slice('NaN/Inf in any op: '.length), c.first);
        const info = await s.dc.exceptionInfoRequest({ threadId: THREAD });
        assert.equal(info.body.exceptionId, 'OpNonFinite');
        // The op's frame: the first of the program's, below TF.js's (deemphasized) frames.
        const top = firstUserFrame(await s.stack());
        assert.match(top?.name ?? '', c.frame.name);
        assert.equal(top?.source?.path, frameFile);
        assert.equal(top?.line, lineOf(frameFile, c.frame.marker), `the op's frame is at ${c.frame.file} ${c.frame.marker}`);
        const scope = await s.scope(top!.id, 'Op');
        for (const [row, value] of Object.entries(c.scope)) assert.match(scope.get(row).value, value, `Op scope row ${row}`);
        // Continue: on to each later birth, never to the ops that only carry one on.
        const stops: DebugProtocol.StoppedEvent[] = [stop];
        await s.dc.continueRequest({ threadId: THREAD });
        for (let next = await s.nextStop(); next; next = await s.nextStop()) {
          stops.push(next);
          assert.ok(stops.length <= 10, `at most a few births: ${s.summary()}`);
          await s.dc.continueRequest({ threadId: THREAD });
        }
        const exited = s.all('exited').at(-1) as DebugProtocol.ExitedEvent | undefined;
        timings.push(`${c.program}: debugger ${((performance.now() - started) / plain.ms).toFixed(2)}x (${stops.length} stops)`);
        assert.equal(exited?.body.exitCode, plain.status, s.summary());
        assert.deepEqual(
          lines(s.output('stdout')).filter((l) => !l.startsWith('[tfjs-callbacks]')),
          lines(plain.stdout),
        );
      } finally {
        await s.close();
      }
    });
  });
}

describe('the filter off (the default)', () => {
  test('the same training program runs to its end without a stop', T, async () => {
    const s = await Session.start();
    try {
      await s.launch({ program: path.join(project.dir, 'sqrt-layer.cjs'), cwd: project.dir });
      assert.equal(await s.nextStop(), undefined, s.summary());
      assert.equal((s.all('exited').at(-1) as DebugProtocol.ExitedEvent | undefined)?.body.exitCode, 0, s.summary());
    } finally {
      await s.close();
    }
  });
});
