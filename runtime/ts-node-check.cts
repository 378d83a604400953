/**
 * Why ts-node failed to start, where it is the known reason: TypeScript 7 (what `npm install
 * typescript` brings now) has no JavaScript compiler API, and ts-node dies on it with
 * `Cannot read properties of undefined (reading 'fileExists')`. CommonJS, required by the
 * bootloaders that run first in a debugged or CLI-run process (debug-adapter/debuggee/boot.cts,
 * cli/program-preload.cts); it costs a look at argv where ts-node is not in the process.
 */
import { readFileSync } from 'node:fs';
import Module from 'node:module';
import path from 'node:path';

/** ts-node in this process: a preload (`-r ts-node/register`, `--loader ts-node/esm`) or one of its CLIs. */
export function tsNodeInProcess(execArgv: readonly string[], nodeOptions: string | undefined, script: string | undefined): boolean {
  const named = (text: string) => /(^|[\\/\s=])ts-node([\\/]|$|\s)/.test(text);
  if (execArgv.some(named) || (nodeOptions !== undefined && named(nodeOptions))) return true;
  // Its CLIs as installed (dist/bin*.js) and as npx and npm scripts start them (.bin/ts-node*).
  return script !== undefined && /[\\/](ts-node[\\/]dist[\\/]bin[\w-]*\.js|\.bin[\\/]ts-node[\w-]*)$/.test(script);
}

/** The TypeScript ts-node would load from `cwd` (the project's, else its own): its version and folder. */
export function typescriptFor(cwd: string): { version: string; dir: string } | undefined {
  for (const from of [path.join(cwd, 'package.json'), 'ts-node/package.json']) {
    try {
      const base = from.startsWith('ts-node') ? Module.createRequire(path.join(cwd, 'package.json')).resolve(from) : from;
      const manifest = Module.createRequire(base).resolve('typescript/package.json');
      const version = (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: unknown }).version;
      if (typeof version === 'string') return { version, dir: path.dirname(manifest) };
    } catch {
      // Not there: the next place ts-node looks.
    }
  }
  return undefined;
}

/** What to tell when ts-node runs with a TypeScript it cannot load, else undefined. */
export function tsNodeProblem(typescript: { version: string; dir: string } | undefined): string | undefined {
  const major = typescript ? Number(typescript.version.split('.')[0]) : Number.NaN;
  if (!typescript || !(major >= 7)) return undefined;
  return (
    `tfjs-callbacks: ts-node cannot run on TypeScript ${typescript.version} (${typescript.dir}), which has no JavaScript compiler API.\n` +
    '  Fix: npm install --save-dev typescript@5.9 (or leave ts-node out: the debugger and the CLI run .ts programs through tsx).\n'
  );
}

const EXPLAINED_KEY = Symbol.for('tfjs-callback-debugger.tsNodeExplained');

/** Where ts-node runs on TypeScript 7: says why on stderr if the process then fails. */
export function explainTsNodeFailure(): void {
  // Both bootloaders may run in one process (the CLI in a Debug Terminal): one says it.
  const said = process as unknown as Record<symbol, boolean | undefined>;
  if (said[EXPLAINED_KEY]) return;
  said[EXPLAINED_KEY] = true;
  if (!tsNodeInProcess(process.execArgv, process.env.NODE_OPTIONS, process.argv[1])) return;
  const problem = tsNodeProblem(typescriptFor(process.cwd()));
  if (!problem) return;
  process.once('exit', (code) => {
    if (code !== 0) process.stderr.write(problem);
  });
}
