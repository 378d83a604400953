/**
 * Fresh user projects in temp folders, as a user makes them: a package.json and their own
 * dependencies (`@tensorflow/tfjs`, tfjs-node, this package from its packed tarball), installed by
 * npm from its cache (the repository's own install fills it; what it lacks npm fetches from the
 * registry).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../fixtures/spawn.js';

/** The tfjs version the repository uses, so the install comes from npm's cache. */
export const TFJS_VERSION = (
  JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules', '@tensorflow', 'tfjs', 'package.json'), 'utf8')) as { version: string }
).version;

/** Makes `dir` a project with its own @tensorflow/tfjs (and `type` in package.json when given). */
export function projectWithOwnTfjs(dir: string, type?: 'module' | 'commonjs'): void {
  makeUserProject(dir, { ...(type ? { type } : {}), dependencies: { '@tensorflow/tfjs': TFJS_VERSION } });
}

export interface ProjectSpec {
  /** package.json "type". */
  readonly type?: 'module' | 'commonjs';
  /** Dependencies (name → version range), installed without their install scripts: tfjs-node's
   * downloads libtensorflow, so it lands without its binding, as for a user behind a firewall. */
  readonly dependencies?: Record<string, string>;
  /** npm scripts. */
  readonly scripts?: Record<string, string>;
  /** Add this package as users add it: `npm install` of the tarball `npm pack` makes. */
  readonly withRuntime?: boolean;
}

export interface UserProject {
  readonly dir: string;
  /** Writes a file of the project (relative path) and returns its absolute path. */
  write(file: string, text: string): string;
}

/** A fresh project in `dir` per `spec`: its package.json written, its dependencies installed. */
export function makeUserProject(dir: string, spec: ProjectSpec): UserProject {
  fs.mkdirSync(dir, { recursive: true });
  const manifest = {
    name: path
      .basename(dir)
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, '-'),
    version: '1.0.0',
    private: true,
    ...(spec.type ? { type: spec.type } : {}),
    ...(spec.scripts ? { scripts: spec.scripts } : {}),
  };
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  const packages = [...Object.entries(spec.dependencies ?? {}).map(([name, range]) => `${name}@${range}`), ...(spec.withRuntime ? [packedRuntime()] : [])];
  if (packages.length) npmInstall(dir, packages);
  return {
    dir,
    write: (file, text) => {
      const target = path.join(dir, file);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, text);
      return target;
    },
  };
}

let tarball: string | undefined;

/** This package as `npm pack` makes it, what the registry would serve (once per test process; needs `npm run build` first). */
export function packedRuntime(): string {
  if (tarball && fs.existsSync(tarball)) return tarball;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tfjs-callbacks-pack-'));
  const name = execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', dir, '--loglevel=error'], { cwd: repoRoot, encoding: 'utf8' })
    .trim()
    .split('\n')
    .at(-1)!;
  tarball = path.join(dir, name);
  return tarball;
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
