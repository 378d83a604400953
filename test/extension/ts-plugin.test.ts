/**
 * The TypeScript server plugin the extension contributes (ts-plugin/, `typescriptServerPlugins`):
 * a project that does not install tfjs-callback-debugger gets the runtime's types in the editor,
 * and, when it has its own @tensorflow/tfjs, the runtime's declarations use that copy (one
 * `tf.Tensor` type). Real tsserver (TypeScript's own, from node_modules), with and without the
 * plugin, over its stdio protocol.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { tempDir } from '../fixtures/callback-models.js';
import { repoRoot } from '../fixtures/spawn.js';
import { projectWithOwnTfjs } from '../helpers/projects.js';

const tsserver = path.join(repoRoot, 'node_modules', 'typescript', 'lib', 'tsserver.js');
const { dir, cleanup } = tempDir('ts-plugin-');
after(cleanup);

interface Diagnostic {
  readonly code: number;
  readonly text: string;
  readonly start: { readonly line: number };
}

/** tsserver over stdio: one request at a time, answers matched by request_seq. */
class TsServer {
  private seq = 0;
  private buffer = '';
  private readonly waiting = new Map<number, (body: unknown) => void>();
  private readonly child: ChildProcess;

  /** `extension`: the folder the plugin is found in (node_modules/tfjs-callbacks-ts-plugin), the repository by default. */
  constructor(plugin: boolean, extension = repoRoot) {
    const args = [
      tsserver,
      '--disableAutomaticTypingAcquisition',
      ...(plugin ? ['--globalPlugins', 'tfjs-callbacks-ts-plugin', '--pluginProbeLocations', extension] : []),
    ];
    this.child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    this.child.stdout!.setEncoding('utf8');
    this.child.stdout!.on('data', (chunk: string) => this.read(chunk));
  }

  private read(chunk: string): void {
    this.buffer += chunk;
    for (;;) {
      const header = /Content-Length: (\d+)\r\n\r\n/.exec(this.buffer);
      if (!header) return;
      const start = header.index + header[0].length;
      const length = Number(header[1]);
      if (Buffer.byteLength(this.buffer.slice(start)) < length) return;
      const body = Buffer.from(this.buffer.slice(start)).subarray(0, length).toString();
      this.buffer = Buffer.from(this.buffer.slice(start)).subarray(length).toString();
      const message = JSON.parse(body) as { type: string; request_seq?: number; body?: unknown };
      if (message.type === 'response' && message.request_seq !== undefined) this.waiting.get(message.request_seq)?.(message.body);
    }
  }

  request(command: string, args: unknown): Promise<unknown> {
    const seq = ++this.seq;
    return new Promise((resolve) => {
      this.waiting.set(seq, resolve);
      this.child.stdin!.write(`${JSON.stringify({ seq, type: 'request', command, arguments: args })}\n`);
    });
  }

  async diagnostics(file: string): Promise<Diagnostic[]> {
    await this.request('open', { file });
    return (await this.request('semanticDiagnosticsSync', { file })) as Diagnostic[];
  }

  stop(): void {
    this.child.kill();
  }
}

const PROGRAM = `import * as tf from '@tensorflow/tfjs';
import { numpyFunction, type NdArray } from 'tfjs-callback-debugger/runtime';
export const y: tf.Tensor = numpyFunction((a: NdArray) => a, [tf.tensor([1])], 'float32');
export const wrong: number = numpyFunction((a: NdArray) => a, [tf.tensor([1])], 'float32');
`;
const TSCONFIG = JSON.stringify({
  compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, skipLibCheck: true, noEmit: true },
});

/**
 * The extension's folder as the .vsix installs it, for what the plugin reads: its manifest, the
 * runtime's declarations, TF.js's Node bundle without its declarations (.vscodeignore), the plugin.
 */
function installedExtension(): string {
  const ext = path.join(dir, 'installed-extension');
  if (fs.existsSync(ext)) return ext;
  fs.mkdirSync(ext, { recursive: true });
  fs.writeFileSync(path.join(ext, 'package.json'), JSON.stringify({ name: 'tfjs-callback-debugger' }));
  const runtime = path.join(repoRoot, 'dist', 'runtime');
  for (const file of fs.readdirSync(runtime, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.d.ts'))) {
    fs.mkdirSync(path.dirname(path.join(ext, 'dist', 'runtime', file)), { recursive: true });
    fs.copyFileSync(path.join(runtime, file), path.join(ext, 'dist', 'runtime', file));
  }
  const tfjs = path.join(repoRoot, 'node_modules', '@tensorflow', 'tfjs');
  fs.mkdirSync(path.join(ext, 'node_modules', '@tensorflow', 'tfjs', 'dist'), { recursive: true });
  for (const file of ['package.json', 'dist/tf.node.js']) fs.copyFileSync(path.join(tfjs, file), path.join(ext, 'node_modules', '@tensorflow', 'tfjs', file));
  const plugin = path.join(ext, 'node_modules', 'tfjs-callbacks-ts-plugin');
  fs.mkdirSync(plugin, { recursive: true });
  for (const file of ['index.cjs', 'package.json']) fs.copyFileSync(path.join(repoRoot, 'ts-plugin', file), path.join(plugin, file));
  return ext;
}

function project(name: string, ownTfjs: boolean): string {
  const root = path.join(dir, name);
  if (ownTfjs) projectWithOwnTfjs(root, 'module');
  else {
    fs.mkdirSync(root, { recursive: true });
    fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  }
  fs.writeFileSync(path.join(root, 'tsconfig.json'), TSCONFIG);
  const file = path.join(root, 'main.ts');
  fs.writeFileSync(file, PROGRAM);
  return file;
}

describe('the TypeScript server plugin', { timeout: 120_000 }, () => {
  let withTfjs = '';
  before(() => {
    assert.ok(fs.existsSync(path.join(repoRoot, 'dist', 'runtime', 'index.d.ts')), 'npm run build made the runtime declarations');
    withTfjs = project('with-tfjs', true);
  });

  test('without it, a project that does not install the runtime gets ts2307 on its import (what users saw)', async () => {
    const server = new TsServer(false);
    try {
      const diagnostics = await server.diagnostics(withTfjs);
      assert.ok(
        diagnostics.some((d) => d.code === 2307 && d.text.includes("'tfjs-callback-debugger/runtime'")),
        JSON.stringify(diagnostics),
      );
    } finally {
      server.stop();
    }
  });

  test("with it: the runtime's types, and the project's own tf.Tensor is the runtime's (only the real type error remains)", async () => {
    const server = new TsServer(true);
    try {
      const diagnostics = await server.diagnostics(withTfjs);
      assert.deepEqual(
        diagnostics.map((d) => [d.start.line, d.code]),
        [[4, 2322]],
        JSON.stringify(diagnostics.map((d) => d.text)),
      );
      assert.match(diagnostics[0]!.text, /Type 'Tensor(<Rank>)?' is not assignable to type 'number'/);
    } finally {
      server.stop();
    }
  });

  test("as installed from the .vsix (TF.js's bundles, not its declarations), in a project that reads JavaScript from node_modules: tf stays untyped, no error", async () => {
    // What the e2e's sample showed: 'Property tensor does not exist on type typeof seedrandom' on
    // every tf.tensor, TypeScript having typed the runtime's tf from the extension's tf.node.js.
    const ext = installedExtension();
    const root = path.join(dir, 'reads-js');
    fs.mkdirSync(root, { recursive: true });
    fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'reads-js', private: true, type: 'module' }));
    fs.writeFileSync(
      path.join(root, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', allowJs: true, maxNodeModuleJsDepth: 2, noEmit: true },
      }),
    );
    const file = path.join(root, 'main.ts');
    fs.writeFileSync(
      file,
      "import { numpyFunction, tf, type NdArray } from 'tfjs-callback-debugger/runtime';\nexport const input: tf.Tensor = tf.tensor2d([[1, 2]]);\nexport const y = numpyFunction((a: NdArray) => a, [input], 'float32');\n",
    );
    const server = new TsServer(true, ext);
    try {
      const diagnostics = await server.diagnostics(file);
      assert.deepEqual(
        diagnostics.map((d) => d.text),
        [],
      );
    } finally {
      server.stop();
    }
  });

  test('with it, in a folder with no @tensorflow/tfjs: the runtime resolves, with the types shipped beside it', async () => {
    const bare = project('bare', false);
    const server = new TsServer(true);
    try {
      const diagnostics = await server.diagnostics(bare);
      assert.ok(!diagnostics.some((d) => d.code === 2307 && d.text.includes('tfjs-callback-debugger')), JSON.stringify(diagnostics.map((d) => d.text)));
    } finally {
      server.stop();
    }
  });
});
