/**
 * Users' projects, made fresh by a test the way a user makes one: a folder with its own
 * package.json, its dependencies installed by npm (from npm's cache where the repository's install
 * filled it, else the registry), and this package added as users add it: `npm install` of the
 * tarball `npm pack` makes (what the registry would serve). Packages whose install script downloads
 * a binary (tfjs-node) are installed with --ignore-scripts: what a user behind a firewall has.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../fixtures/spawn.js';

let tarball: string | undefined;

/** This package as `npm pack` makes it (once per test process; needs `npm run build` first). */
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

export interface UserProject {
  readonly dir: string;
  /** Writes a file of the project (relative path) and returns its absolute path. */
  write(file: string, text: string): string;
}

export interface ProjectSpec {
  /** package.json "type". */
  readonly type?: 'module' | 'commonjs';
  /** Dependencies, installed with their scripts (name → version range). */
  readonly dependencies?: Record<string, string>;
  /** Dependencies installed with --ignore-scripts (tfjs-node, whose script downloads libtensorflow). */
  readonly unbuilt?: Record<string, string>;
  /** npm scripts. */
  readonly scripts?: Record<string, string>;
  /** Add this package (from its packed tarball) as a dependency. */
  readonly withRuntime?: boolean;
}

/** A fresh project in `dir` per `spec`, installed. */
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
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const specs = (deps: Record<string, string> | undefined) => Object.entries(deps ?? {}).map(([name, range]) => `${name}@${range}`);
  const unbuilt = specs(spec.unbuilt);
  if (unbuilt.length) npmInstall(dir, [...unbuilt, '--ignore-scripts']);
  const built = [...specs(spec.dependencies), ...(spec.withRuntime ? [packedRuntime()] : [])];
  if (built.length) npmInstall(dir, built);
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

function npmInstall(dir: string, args: string[]): void {
  const run = (mode: string) =>
    spawnSync('npm', ['install', mode, '--no-audit', '--no-fund', '--loglevel=error', ...args], { cwd: dir, encoding: 'utf8', timeout: 600_000 });
  let result = run('--prefer-offline');
  if (result.status !== 0) result = run('--prefer-online');
  if (result.status !== 0) throw new Error(`npm install ${args.join(' ')} failed in ${dir}:\n${result.stdout}\n${result.stderr}`);
}
