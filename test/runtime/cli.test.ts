/**
 * The CLI, `tfjs-callbacks run <target>`, run as a child process from the repository root
 * (node --import tsx runtime/cli/main.ts ...), asserting on its stdout, exit code and trace file.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { placeholder, unary, writeGraphModel } from '../../scripts/lib/graph-model-writer.js';
import { eagerModel, locationOfNodeName, tempDir } from '../fixtures/callback-models.js';
import { linesStartingWith, repoRoot, runCli, writeFile, type NodeResult } from '../fixtures/spawn.js';

const { dir: root, cleanup } = tempDir('cli-test-');
after(cleanup);

const BACKEND_LINE = '[tfjs-callbacks] backend:';
const USAGE = 'Usage: tfjs-callbacks run [options] <program.ts|program.js> [options] [--] [program arguments]';

/** The summary line: the last line starting with ✓, ✗ or ⚠ followed by a count. */
function summaryLine(stdout: string): string {
  const lines = stdout.split('\n').filter((l) => /^[✓✗⚠] \d+ callback invocations? of /.test(l));
  assert.ok(lines.length > 0, `no summary line in:\n${stdout}`);
  return lines.at(-1)!;
}

interface TraceJson {
  version: number;
  tool: string;
  target: string;
  backend: { backend: string } | undefined;
  invocations: {
    callback: { name: string; token: string; kind: string; functionName?: string };
    op: string;
    graph?: string;
    node?: string;
    inputs: { dtype: string; shape: number[] }[];
    outputs: { dtype: string; shape: number[] }[];
    toutCheck: { ok: boolean; mismatches: { message: string }[]; narrowed: unknown[] };
    durationMs: number;
    callSite?: { file: string; line: number; column: number };
  }[];
  summary: { invocations: number; callbacks: number; toutMismatches: number; errors: number };
  failure?: { name: string; message: string };
}

function readTrace(file: string): TraceJson {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as TraceJson;
}

describe('run examples/main.ts', () => {
  const traceFile = path.join(root, 'main', 'trace.json');
  let run: NodeResult;
  before(() => {
    run = runCli(['run', 'examples/main.ts', '--trace', traceFile]);
  });

  test('exits 0 and prints the backend line first', () => {
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.equal(run.stdout.split('\n')[0], `${BACKEND_LINE} wasm (auto: WebAssembly; why: \`tfjs-callbacks backend\`)`, 'one short line');
    assert.equal(linesStartingWith(run.stdout, BACKEND_LINE).length, 1);
    assert.equal(linesStartingWith(run.stderr, BACKEND_LINE).length, 0, 'the programs’ own selectBackend() calls print nothing more');
  });

  test('prints a ✓ line per invocation: map_func (PyFunc), log_huber (EagerPyFunc), the model node', () => {
    const mapFunc = linesStartingWith(run.stdout, '✓ ').filter((l) => l.includes('(map_func) [PyFunc]'));
    assert.equal(mapFunc.length, 4, run.stdout);
    for (const line of mapFunc) {
      assert.ok(line.includes('in string[], int32[8] → out float32[64,8], int32[8]'), line);
      assert.ok(line.includes('Tout [float32, int32]'), line);
      assert.match(line, /examples\/captioning-pipeline\.ts:\d+:\d+$/);
    }
    const logHuber = linesStartingWith(run.stdout, '✓ ').filter((l) => l.includes('(log_huber) [EagerPyFunc]'));
    assert.equal(logHuber.length, 2, run.stdout);
    for (const line of logHuber) assert.ok(line.includes('in float32[], float32[] → out float32[]'), line);
    const model = linesStartingWith(run.stdout, '✓ standardize › standardize [EagerPyFunc]');
    assert.equal(model.length, 1, run.stdout);
    assert.ok(model[0]!.includes('in float32[4,16] → out float32[4,16]'), model[0]);
    const at = locationOfNodeName(path.join(repoRoot, 'examples/models/standardize/model.json'), 'standardize');
    assert.ok(model[0]!.endsWith(`examples/models/standardize/model.json:${at.line}:${at.column}`), model[0]);
    assert.equal(linesStartingWith(run.stdout, '✗').length, 0, 'no ✗ line');
  });

  test('the programs’ own output is there', () => {
    assert.match(run.stdout, /^log_huber: y = 1, dy\/dx = 2$/m);
    assert.match(run.stdout, /^captioning batch 1: img_tensor float32\[2,64,8\], cap int32\[2,8\]$/m);
    assert.match(run.stdout, /^graph model 'standardize': nodes standardize \(EagerPyFunc, token pyfunc_0\); output float32\[4,16\]/m);
  });

  test('prints the summary: 7 invocations of 3 callbacks, 0 Tout mismatches', () => {
    const summary = summaryLine(run.stdout);
    assert.ok(summary.startsWith('✓ 7 callback invocations of 3 callbacks · 0 Tout mismatches · 0 errors'), summary);
    assert.ok(summary.endsWith('backend wasm'), summary);
  });

  test('--trace writes the invocations as JSON', () => {
    assert.ok(run.stdout.includes(`trace written to ${traceFile}`));
    const trace = readTrace(traceFile);
    assert.equal(trace.version, 1);
    assert.equal(trace.tool, 'tfjs-callbacks');
    assert.equal(trace.target, 'examples/main.ts');
    assert.equal(trace.backend?.backend, 'wasm');
    assert.equal(trace.failure, undefined);
    assert.equal(trace.invocations.length, 7);
    for (const inv of trace.invocations) {
      for (const key of ['callback', 'op', 'inputs', 'outputs', 'toutCheck', 'durationMs', 'callSite'] as const) {
        assert.ok(key in inv, `invocation lacks ${key}: ${JSON.stringify(inv)}`);
      }
      assert.equal(typeof inv.durationMs, 'number');
      assert.equal(inv.toutCheck.ok, true);
      assert.equal(typeof inv.callSite?.file, 'string');
      assert.equal(typeof inv.callSite?.line, 'number');
    }
    assert.deepEqual(
      trace.invocations.map((i) => `${i.callback.functionName ?? i.callback.name}/${i.op}`),
      ['map_func/PyFunc', 'map_func/PyFunc', 'map_func/PyFunc', 'map_func/PyFunc', 'log_huber/EagerPyFunc', 'log_huber/EagerPyFunc', 'standardize/EagerPyFunc'],
    );
    const mapFunc = trace.invocations[0]!;
    assert.deepEqual(
      mapFunc.outputs.map((o) => [o.dtype, o.shape]),
      [
        ['float32', [64, 8]],
        ['int32', [8]],
      ],
    );
    assert.equal(mapFunc.callSite!.file, path.join(repoRoot, 'examples', 'captioning-pipeline.ts'));
    const node = trace.invocations[6]!;
    assert.equal(node.graph, 'standardize');
    assert.equal(node.node, 'standardize');
    assert.equal(node.callSite!.file, path.join(repoRoot, 'examples', 'models', 'standardize', 'model.json'));
    assert.deepEqual(
      {
        invocations: trace.summary.invocations,
        callbacks: trace.summary.callbacks,
        toutMismatches: trace.summary.toutMismatches,
        errors: trace.summary.errors,
      },
      { invocations: 7, callbacks: 3, toutMismatches: 0, errors: 0 },
    );
  });
});

describe('run examples/tout-mismatch.ts', () => {
  const traceFile = path.join(root, 'mismatch', 'trace.json');
  let run: NodeResult;
  before(() => {
    run = runCli(['run', 'examples/tout-mismatch.ts', '--trace', traceFile]);
  });

  test("exits 1 with TensorFlow's message and a ✗ summary", () => {
    assert.equal(run.status, 1, `${run.stdout}\n${run.stderr}`);
    assert.ok(run.stdout.includes('0-th value returned by normalize is double, but expects float'), run.stdout);
    const invocation = linesStartingWith(run.stdout, '✗ normalize [PyFunc]');
    assert.equal(invocation.length, 1, run.stdout);
    assert.ok(invocation[0]!.includes('out float64[4]'), invocation[0]);
    assert.match(run.stdout, /^✗ examples\/tout-mismatch\.ts failed: InvalidArgumentError: 0-th value returned by normalize is double, but expects float$/m);
    const summary = summaryLine(run.stdout);
    assert.ok(summary.startsWith('✗ 1 callback invocation of 1 callback · 1 Tout mismatch · 0 errors'), summary);
  });

  test('the trace records the mismatch and the failure', () => {
    const trace = readTrace(traceFile);
    assert.equal(trace.invocations.length, 1);
    assert.equal(trace.invocations[0]!.toutCheck.ok, false);
    assert.equal(trace.invocations[0]!.toutCheck.mismatches[0]!.message.split('\n')[0], '0-th value returned by normalize is double, but expects float');
    assert.equal(trace.summary.toutMismatches, 1);
    assert.equal(trace.failure?.name, 'InvalidArgumentError');
  });
});

describe('run <model.json>', () => {
  let model: string;
  before(() => {
    model = eagerModel(root, 'cli-model');
  });

  test('--callbacks (by node name) and --inputs print the outputs', () => {
    const callbacks = writeFile(root, 'callbacks-by-name.ts', `export function py(x: { mul(n: number): unknown }) {\n  return x.mul(2);\n}\n`);
    const inputs = writeFile(root, 'inputs.json', JSON.stringify({ x: [[1, -2, 3]] }));
    const traceFile = path.join(root, 'model-trace.json');
    const run = runCli(['run', model, '--callbacks', callbacks, '--inputs', inputs, '--trace', traceFile]);
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /^✓ cli-model › py \[EagerPyFunc\] in float32\[1,3\] → out float32\[1,3\]/m);
    // Relu(2x) of [1, -2, 3] = [2, 0, 6]
    assert.match(run.stdout, /^ {2}output out: float32\[1,3\] min=0 max=6 mean=2\.667$/m);
    assert.ok(summaryLine(run.stdout).startsWith('✓ 1 callback invocation of 1 callback · 0 Tout mismatches'));
    const trace = readTrace(traceFile);
    assert.equal(trace.invocations[0]!.graph, 'cli-model');
    assert.equal(trace.invocations[0]!.node, 'py');
    assert.equal(trace.invocations[0]!.callback.token, 'PyFunc_Upper_7');
    assert.deepEqual(trace.invocations[0]!.callSite, { file: model, ...locationOfNodeName(model, 'py') });
  });

  test('--callbacks binds by token, and the module may import the runtime by package name', () => {
    const callbacks = writeFile(
      root,
      'callbacks-by-token.ts',
      `import { tf } from 'tfjs-callback-debugger/runtime';\nexport const PyFunc_Upper_7 = (x: tf.Tensor) => tf.neg(x);\n`,
    );
    const inputs = writeFile(root, 'inputs-typed.json', JSON.stringify({ x: { dtype: 'float32', shape: [2, 3], data: [1, -2, 3, -4, 5, -6] } }));
    const run = runCli(['run', model, '--callbacks', callbacks, '--inputs', inputs]);
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    // Relu(-x) = [0, 2, 0, 4, 0, 6]
    assert.match(run.stdout, /^ {2}output out: float32\[2,3\] min=0 max=6 mean=2$/m);
  });

  test('the example model with the example callbacks and no --inputs (seeded inputs)', () => {
    const run = runCli(['run', 'examples/models/standardize/model.json', '--callbacks', 'examples/callbacks/standardize.ts']);
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.equal(linesStartingWith(run.stdout, '✓ standardize › standardize [EagerPyFunc] in float32[1,16] → out float32[1,16]').length, 1, run.stdout);
    assert.match(run.stdout, /^ {2}output Relu: float32\[1,16\] min=0 /m);
  });

  test('a model without --callbacks exits 1 with the unbound message', () => {
    const run = runCli(['run', model]);
    assert.equal(run.status, 1, `${run.stdout}\n${run.stderr}`);
    assert.ok(run.stdout.includes('UnboundCallbackError'), run.stdout);
    assert.ok(run.stdout.includes(`Model 'cli-model' (${model}) has 1 callback node with no JS function bound`), run.stdout);
    assert.ok(run.stdout.includes("node 'py' (EagerPyFunc, token 'PyFunc_Upper_7'"), run.stdout);
    assert.ok(run.stdout.includes('tfjs-callbacks run'), run.stdout);
    assert.ok(summaryLine(run.stdout).startsWith('✗ 0 callback invocations'));
  });

  test('an output with NaN and infinities: min, max and mean over its finite values, and the others counted with their signs', () => {
    const model = writeGraphModel(path.join(root, 'log-model'), [placeholder('x', [-1, 4]), unary('out', 'Log', 'x')]);
    const inputs = writeFile(root, 'inputs-log.json', JSON.stringify({ x: [[0, -1, 1, 0]] }));
    const run = runCli(['run', model, '--inputs', inputs]);
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    // log [0, -1, 1, 0] = [−Inf, NaN, 0, −Inf]
    assert.match(run.stdout, /^ {2}output out: float32\[1,4\] min=0 max=0 mean=0 \(1 NaN, 2 −Inf\)$/m);
  });

  test('without --callbacks, the callbacks.ts beside the model binds it, as F5 does', () => {
    const beside = eagerModel(fs.mkdtempSync(path.join(root, 'beside-')), 'cli-beside');
    writeFile(path.dirname(beside), 'callbacks.ts', `export function py(x: { mul(n: number): unknown }) {\n  return x.mul(2);\n}\n`);
    const inputs = writeFile(root, 'inputs-beside.json', JSON.stringify({ x: [[1, -2, 3]] }));
    const run = runCli(['run', beside, '--inputs', inputs]);
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /^ {2}output out: float32\[1,3\] min=0 max=6 mean=2\.667$/m);
  });

  test('--inputs naming an input the model lacks exits 1 naming the inputs', () => {
    const callbacks = writeFile(root, 'callbacks-identity.ts', `export const py = (x: unknown) => x;\n`);
    const inputs = writeFile(root, 'inputs-wrong.json', JSON.stringify({ y: [[1, 2, 3]] }));
    const run = runCli(['run', model, '--callbacks', callbacks, '--inputs', inputs]);
    assert.equal(run.status, 1, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /names y, which is not an input of the model; its inputs are x/);
  });
});

describe('options and usage', () => {
  test('--backend cpu is honored', () => {
    const run = runCli(['run', 'examples/log-huber.ts', '--backend', 'cpu']);
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.ok(run.stdout.startsWith(`${BACKEND_LINE} cpu (`), run.stdout.split('\n')[0]);
    assert.ok(summaryLine(run.stdout).endsWith('backend cpu'));
    assert.ok(!`${run.stdout}${run.stderr}`.includes('Hi, looks like you are running TensorFlow.js in Node.js'));
  });

  test('TFJS_BACKEND=cpu is honored', () => {
    const run = runCli(['run', 'examples/log-huber.ts'], { env: { TFJS_BACKEND: 'cpu' } });
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.ok(run.stdout.startsWith(`${BACKEND_LINE} cpu`), run.stdout.split('\n')[0]);
  });

  test('--help prints the usage and exits 0', () => {
    const run = runCli(['--help']);
    assert.equal(run.status, 0);
    assert.ok(run.stdout.includes(USAGE));
  });

  const usageCases: { name: string; args: string[]; message: string }[] = [
    { name: 'no command', args: [], message: 'tfjs-callbacks: Nothing to run.' },
    { name: 'no target', args: ['run'], message: 'tfjs-callbacks: Nothing to run.' },
    {
      name: 'unknown command',
      args: ['frobnicate', 'examples/main.ts'],
      message: "tfjs-callbacks: Unknown command 'frobnicate' (commands: run, backend, setup-native).",
    },
    { name: 'missing target file', args: ['run', 'examples/no-such-program.ts'], message: 'tfjs-callbacks: examples/no-such-program.ts does not exist.' },
    { name: 'an unknown option before the program', args: ['run', '--bogus', 'examples/main.ts'], message: "tfjs-callbacks: Unknown option '--bogus'" },
    {
      name: 'program arguments after a model',
      args: ['run', 'examples/models/standardize/model.json', '--epochs', '1'],
      message: 'tfjs-callbacks: A model.json takes no program arguments (got --epochs 1).',
    },
    {
      name: '--callbacks with a program target',
      args: ['run', 'examples/main.ts', '--callbacks', 'examples/callbacks/standardize.ts'],
      message: 'tfjs-callbacks: --callbacks and --inputs apply to a model.json target.',
    },
  ];
  for (const { name, args, message } of usageCases) {
    test(`bad usage (${name}) exits 2 with the usage text`, () => {
      const run = runCli(args);
      assert.equal(run.status, 2, `${run.stdout}\n${run.stderr}`);
      assert.ok(run.stderr.startsWith(message), run.stderr);
      assert.ok(run.stderr.includes(USAGE), run.stderr);
      assert.equal(linesStartingWith(run.stdout, BACKEND_LINE).length, 0, 'nothing ran');
    });
  }

  test('bad usage (--callbacks file missing) exits 2 with the usage text', () => {
    const run = runCli(['run', 'examples/models/standardize/model.json', '--callbacks', path.join(root, 'no-such-callbacks.ts')]);
    assert.equal(run.status, 2, `${run.stdout}\n${run.stderr}`);
    assert.ok(run.stderr.includes('no-such-callbacks.ts does not exist'), run.stderr);
    assert.ok(run.stderr.includes(USAGE), run.stderr);
  });

  test('bad usage (--backend bogus) exits 2 listing the backends and the usage text', () => {
    const run = runCli(['run', 'examples/log-huber.ts', '--backend', 'bogus']);
    assert.equal(run.status, 2, `${run.stdout}\n${run.stderr}`);
    assert.ok(run.stderr.includes('--backend="bogus" is not a backend: use one of auto, tensorflow, wasm, cpu.'), run.stderr);
    assert.ok(run.stderr.includes(USAGE), run.stderr);
  });

  test('--backend tensorflow without tfjs-node exits 1 saying how to install it', () => {
    const run = runCli(['run', 'examples/log-huber.ts', '--backend', 'tensorflow']);
    assert.equal(run.status, 1, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stderr, /Backend 'tensorflow' was requested.* but cannot start: @tensorflow\/tfjs-node is not installed/);
    assert.match(run.stderr, /npm install @tensorflow\/tfjs-node/);
  });
});

describe('a project on a TF.js version the runtime does not support', () => {
  test('is refused at once: its version and where, the range, the npm install; exit 1, nothing run', () => {
    const project = path.join(root, 'tfjs-1.7.4-project');
    writeFile(project, 'node_modules/@tensorflow/tfjs/package.json', JSON.stringify({ name: '@tensorflow/tfjs', version: '1.7.4', main: 'index.js' }));
    const program = writeFile(project, 'main.js', "console.log('ran');\n");
    const run = runCli(['run', program], { cwd: project });
    assert.equal(run.status, 1, `${run.stdout}\n${run.stderr}`);
    assert.equal(
      run.stderr.trim(),
      `tfjs-callbacks: This project has @tensorflow/tfjs 1.7.4 (${path.join(project, 'node_modules', '@tensorflow', 'tfjs')}), which tfjs-callback-debugger does not support: it supports TensorFlow.js >=3.0.0 <5.0.0 (3.x and 4.x). Upgrade it with \`npm install @tensorflow/tfjs@^4.22.0\` in ${project} (or @tensorflow/tfjs@^3.21.0, the last 3.x, a smaller step from 1.x).`,
    );
    assert.equal(run.stdout, '', 'nothing ran');
  });
});

describe('a program runs as node runs it', () => {
  test('require.main, process.argv and its flags, its exit code; options after the program up to the first unknown one are ours', () => {
    const program = writeFile(
      root,
      'as-node/main.cjs',
      [
        'if (require.main === module) {',
        "  console.log('argv ' + JSON.stringify(process.argv.slice(1).map((a, i) => (i === 0 ? require('node:path').basename(a) : a))));",
        "  console.log('backend env ' + process.env.TFJS_BACKEND);",
        '  process.exitCode = 3;',
        '}',
        '',
      ].join('\n'),
    );
    const run = runCli(['run', program, '--backend', 'cpu', '--epochs', '2', '--backend', 'x', '--', '-h']);
    assert.equal(run.status, 3, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /^argv \["main\.cjs","--epochs","2","--backend","x","--","-h"\]$/m);
    assert.match(run.stdout, /^backend env cpu$/m);
    assert.match(run.stdout, /^✗ .*main\.cjs exited with code 3$/m);
    const explicit = runCli(['run', program, '--', '--backend', 'cpu']);
    assert.match(explicit.stdout, /^argv \["main\.cjs","--backend","cpu"\]$/m);
    const before = runCli(['run', '--backend', 'cpu', '--', program, '--trace', 'x']);
    assert.match(before.stdout, /^argv \["main\.cjs","--trace","x"\]$/m);
    assert.match(before.stdout, /^backend env cpu$/m);
  });
});

describe('--version, and the backend line’s details one command away (issue 43)', () => {
  test('--version and -v print the package version, exit 0 (they were "Unknown option")', () => {
    const version = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
    for (const flag of ['--version', '-v']) {
      const run = runCli([flag]);
      assert.equal(run.status, 0, `${flag}: ${run.stderr}`);
      assert.equal(run.stdout, `${version}\n`);
    }
    const after = runCli(['run', 'examples/log-huber.ts', '--backend', 'cpu', '--version']);
    assert.equal(after.status, 0, 'after the program, --version is the program’s');
  });

  test('`backend` prints the whole report the run’s line points to: the reason and each backend passed over', () => {
    const run = runCli(['backend']);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^backend: wasm \(auto: WebAssembly with SIMD, 1 thread .*the \d+ kernels it lacks \(/m);
    assert.match(run.stdout, /^skipped tensorflow: @tensorflow\/tfjs-node is not installed/m);
    assert.equal(runCli(['backend', '--backend', 'cpu']).stdout, 'backend: cpu (requested: pure JavaScript)\n');
  });
});
