/**
 * Platform-specific packages (`vsce package --target`). tsx, which runs a user's TypeScript, compiles
 * with esbuild, and esbuild's API runs a native binary from the @esbuild/<platform> package npm
 * installs for this machine only. This machine's target packages from the working tree as it is
 * (what the e2e installs). Another target packages from a copy of the files the allow-list keeps
 * (.vscodeignore), its esbuild package fetched from npm at the version the installed esbuild wants
 * (esbuild checks that its binary's version is its own) in place of this machine's.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hostTarget, type PackageTarget, vscePackageArgs } from './vsce-args.js';

export interface PackagedTarget {
  readonly target: PackageTarget;
  readonly vsix: string;
  /** Entries in the .vsix (the extension's files, its manifest and [Content_Types].xml). */
  readonly entries: number;
  readonly bytes: number;
}

export interface PackageOptions {
  readonly root: string;
  readonly outDir: string;
  /** Where fetched @esbuild/<platform> tarballs are kept between runs. */
  readonly cacheDir?: string;
  readonly log?: (line: string) => void;
}

/** The .vsix file name of a target (vsce's own naming, less the version). */
export function vsixName(target: PackageTarget): string {
  return `tfjs-callback-debugger-${target}.vsix`;
}

/** The files `vsce ls` lists for the working tree at `root` (the allow-list applied). */
export function listPackageFiles(root: string): string[] {
  const out = execFileSync(process.execPath, [vsceCli(root), 'ls'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return out.split('\n').filter((line) => line.trim() !== '');
}

/** Packages each target in turn; the copy for other targets is made once and given each one's esbuild. */
export function packageTargets(targets: readonly PackageTarget[], options: PackageOptions): PackagedTarget[] {
  const log = options.log ?? (() => {});
  mkdirSync(options.outDir, { recursive: true });
  const host = hostTarget();
  const done: PackagedTarget[] = [];
  if (host && targets.includes(host)) done.push(runVsce(options.root, host, options.outDir, log));
  const others = targets.filter((t) => t !== host);
  if (others.length === 0) return done;
  const stage = mkdtempSync(path.join(os.tmpdir(), 'tfjs-cb-package-'));
  try {
    stageWorkingTree(options.root, stage);
    const version = esbuildVersion(options.root);
    const cacheDir = options.cacheDir ?? path.join(options.root, 'node_modules', '.cache', 'tfjs-callback-debugger', 'esbuild');
    for (const target of others) {
      const tarball = fetchEsbuild(target, version, cacheDir, log);
      const esbuildDir = path.join(stage, 'node_modules', '@esbuild');
      rmSync(esbuildDir, { recursive: true, force: true });
      mkdirSync(path.join(esbuildDir, target), { recursive: true });
      execFileSync('tar', ['-xzf', tarball, '-C', path.join(esbuildDir, target), '--strip-components=1']);
      done.push(runVsce(stage, target, options.outDir, log, options.root));
    }
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
  return done;
}

/** The version of esbuild installed here: the @esbuild/<platform> package must be the same one. */
export function esbuildVersion(root: string): string {
  return (JSON.parse(readFileSync(path.join(root, 'node_modules', 'esbuild', 'package.json'), 'utf8')) as { version: string }).version;
}

/** The number of entries in a zip file, from its end-of-central-directory record. */
export function zipEntryCount(file: string): number {
  const data = readFileSync(file);
  for (let i = data.length - 22; i >= Math.max(0, data.length - 22 - 0xffff); i--) {
    if (data.readUInt32LE(i) === 0x06054b50) return data.readUInt16LE(i + 10);
  }
  throw new Error(`${file} is not a zip file (no end-of-central-directory record)`);
}

function vsceCli(root: string): string {
  return path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
}

function runVsce(cwd: string, target: PackageTarget, outDir: string, log: (line: string) => void, root = cwd): PackagedTarget {
  const vsix = path.join(outDir, vsixName(target));
  const started = Date.now();
  execFileSync(process.execPath, [vsceCli(root), ...vscePackageArgs(target), '--out', vsix], { cwd, stdio: 'pipe' });
  const packaged = { target, vsix, entries: zipEntryCount(vsix), bytes: statSync(vsix).size };
  log(
    `${target}: ${path.relative(process.cwd(), vsix)}, ${packaged.entries} entries, ${(packaged.bytes / 1e6).toFixed(2)} MB (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  return packaged;
}

/**
 * A copy of what the package takes from the working tree: the files `vsce ls` lists (less this
 * machine's esbuild binary), .vscodeignore, .npmrc and the package.json of every production
 * dependency, so that vsce's `npm list --production` in the copy finds the tree it found here.
 */
function stageWorkingTree(root: string, stage: string): void {
  const copy = (relative: string) => {
    const to = path.join(stage, relative);
    if (existsSync(to)) return;
    mkdirSync(path.dirname(to), { recursive: true });
    copyFileSync(path.join(root, relative), to);
  };
  for (const file of listPackageFiles(root)) if (!file.startsWith('node_modules/@esbuild/')) copy(file);
  copy('.vscodeignore');
  // install-links: npm list takes the copied ts-plugin for its `file:` dependency, as here.
  if (existsSync(path.join(root, '.npmrc'))) copy('.npmrc');
  const installed = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: root, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  for (const dir of installed.split('\n')) {
    const relative = path.relative(root, dir.trim());
    if (!relative.startsWith('node_modules') || relative.includes(`${path.sep}@esbuild${path.sep}`)) continue;
    if (existsSync(path.join(root, relative, 'package.json'))) copy(path.join(relative, 'package.json'));
  }
}

/** The npm tarball of @esbuild/<target> at `version`, fetched once (`npm pack` checks its integrity). */
function fetchEsbuild(target: PackageTarget, version: string, cacheDir: string, log: (line: string) => void): string {
  const tarball = path.join(cacheDir, `esbuild-${target}-${version}.tgz`);
  if (existsSync(tarball)) return tarball;
  mkdirSync(cacheDir, { recursive: true });
  log(`${target}: fetching @esbuild/${target}@${version} from npm`);
  try {
    execFileSync('npm', ['pack', `@esbuild/${target}@${version}`, '--pack-destination', cacheDir, '--silent'], { stdio: 'pipe' });
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`cannot package ${target}: npm pack @esbuild/${target}@${version} failed (the registry is needed once per version):\n${stderr}`);
  }
  if (!existsSync(tarball)) throw new Error(`npm pack @esbuild/${target}@${version} wrote no ${path.basename(tarball)} in ${cacheDir}`);
  return tarball;
}
