/**
 * `tfjs-callbacks run --exec <runner> program.js`: the Node.js script a runner is (babel-node,
 * ts-node, …), found as a shell in the project would find the command: a path as given, else
 * node_modules/.bin from the program's folder up, else PATH. The CLI runs that script with its own
 * node, the program's processes getting the CLI's preload through NODE_OPTIONS (child-process.ts).
 */
import { closeSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/** Why `runner` cannot be used: thrown as a usage error. */
export class RunnerError extends Error {}

/** The runner's script, links followed; throws RunnerError saying what to do when there is none. */
export function findRunner(runner: string, projectDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const found = runner.includes('/') || runner.includes(path.sep) ? path.resolve(runner) : onSearchPath(runner, projectDir, env);
  if (!found || !isFile(found)) {
    throw new RunnerError(
      `--exec ${runner}: ${found ? `${found} is not a file` : `no ${runner} in node_modules/.bin from ${projectDir} up, nor on PATH`}. ` +
        'Install the runner in the project (for babel-node: npm install --save-dev @babel/node @babel/core), or give the path of its script.',
    );
  }
  const script = realpathSync(found);
  if (!isNodeScript(script)) {
    throw new RunnerError(
      `--exec ${runner}: ${script} is not a Node.js script (no .js, .cjs or .mjs name, no \`#!…node\` first line). ` +
        "--exec runs a runner written for Node (babel-node, ts-node) with the CLI's node; for another kind of runner, run its Node.js script.",
    );
  }
  return script;
}

function onSearchPath(name: string, projectDir: string, env: NodeJS.ProcessEnv): string | undefined {
  for (let dir = path.resolve(projectDir); ; dir = path.dirname(dir)) {
    const bin = path.join(dir, 'node_modules', '.bin', name);
    if (isFile(bin)) return bin;
    if (path.dirname(dir) === dir) break;
  }
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const bin = path.join(dir, name);
    if (isFile(bin)) return bin;
  }
  return undefined;
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** A .js/.cjs/.mjs file, or one whose first line runs node (`#!/usr/bin/env node`). */
function isNodeScript(file: string): boolean {
  if (/\.[cm]?js$/.test(file)) return true;
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(128);
    const firstLine = head
      .subarray(0, readSync(fd, head, 0, head.length, 0))
      .toString('utf8')
      .split('\n')[0]!;
    return /^#!.*\bnode\b/.test(firstLine);
  } finally {
    closeSync(fd);
  }
}
