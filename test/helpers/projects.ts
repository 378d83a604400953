/**
 * Fresh user projects in temp folders, as a newcomer makes them: `npm init -y` and their own
 * `@tensorflow/tfjs`, installed by npm from its cache (the repository's own install fills it; with
 * an empty cache npm fetches from the registry).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../fixtures/spawn.js';

/** The tfjs version the repository uses, so the install comes from npm's cache. */
export const TFJS_VERSION = (
  JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules', '@tensorflow', 'tfjs', 'package.json'), 'utf8')) as { version: string }
).version;

/** Makes `dir` a project with its own @tensorflow/tfjs (and `type` in package.json when given). */
export function projectWithOwnTfjs(dir: string, type?: 'module' | 'commonjs'): void {
  fs.mkdirSync(dir, { recursive: true });
  const manifest = {
    name: path
      .basename(dir)
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, '-'),
    version: '1.0.0',
    private: true,
    ...(type ? { type } : {}),
  };
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  npmInstall(dir, [`@tensorflow/tfjs@${TFJS_VERSION}`]);
}

/** `npm install <packages>` in the project `dir` (its package.json written), from npm's cache when it has them. */
export function npmInstall(dir: string, packages: readonly string[]): void {
  const install = (mode: string) =>
    spawnSync('npm', ['install', mode, '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', ...packages], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 300_000,
    });
  let result = install('--offline');
  if (result.status !== 0) result = install('--prefer-offline');
  if (result.status !== 0) throw new Error(`npm install ${packages.join(' ')} failed in ${dir}:\n${result.stdout}\n${result.stderr}`);
}

/** Lines tfjs prints when a second copy of it loads into the same process. */
export const SECOND_ENGINE = /already registered|Platform node has already been set|Hi, looks like you are running TensorFlow\.js in Node\.js/;
