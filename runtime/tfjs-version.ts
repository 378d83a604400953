/**
 * The TensorFlow.js versions the runtime supports, and the check of a project's copy against them.
 *
 * It imports no TensorFlow.js: the CLI and the debugger ask before any tfjs loads (the runtime runs
 * on the project's own copy: runtime/loader), and the language server, which never loads tfjs, asks
 * too. Packages are found as the loader finds them: in node_modules folders from the project's up.
 */
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { READ_LIMITS, readBoundedTextSync } from './bounded-read.js';

/**
 * TensorFlow.js 3.0.0 up to, not including, 5.0.0. Tested on 3.0.0, 3.18.0, 3.21.0, 4.0.0 and
 * 4.22.0. Before 3.0 the engine's internals differ (runKernelFunc takes positional arguments, so
 * tfFunction cannot trace; 1.x lacks most modular kernels), and no wasm backend of theirs starts
 * on Node 18 and later.
 */
export const SUPPORTED_TFJS = { min: '3.0.0', belowMajor: 5 } as const;

/** The supported range as npm writes it. */
export const SUPPORTED_TFJS_RANGE = `>=${SUPPORTED_TFJS.min} <${SUPPORTED_TFJS.belowMajor}.0.0`;

/** What to install: the version shipped with the runtime, tested most. */
export const RECOMMENDED_TFJS = '^4.22.0';

/** The last 3.x: the smaller step from 1.x or 2.x. */
const LAST_3X = '^3.21.0';

/** The packages whose version is the engine's: the one the runtime imports, and its core. */
export const TFJS_PACKAGES = ['@tensorflow/tfjs', '@tensorflow/tfjs-core'] as const;

/** A package as Node resolves it from a folder. */
export interface InstalledPackage {
  readonly name: string;
  /** undefined when its package.json has none that can be read (`problem` says why). */
  readonly version: string | undefined;
  /** Its package.json. */
  readonly manifest: string;
  readonly problem?: string;
}

export type TfjsVersionCheck =
  /** `found` is empty when the project has no tfjs: the runtime's own copy serves it. */
  | { readonly ok: true; readonly found: readonly InstalledPackage[] }
  | { readonly ok: false; readonly found: readonly InstalledPackage[]; readonly offending: InstalledPackage; readonly message: string };

/**
 * The @tensorflow packages whose version is the engine's, beyond TFJS_PACKAGES: a project refused
 * for its tfjs is told of each of these that is outside the range too (issue 43: `npm install
 * @tensorflow/tfjs@^4.22.0` as told, then a second refusal for the tfjs-core 2.8.6 the project's old
 * tfjs-node kept hoisted). The first three bring the others as their dependencies.
 */
const ENGINE_PACKAGES = [
  '@tensorflow/tfjs',
  '@tensorflow/tfjs-node',
  '@tensorflow/tfjs-node-gpu',
  '@tensorflow/tfjs-core',
  '@tensorflow/tfjs-layers',
  '@tensorflow/tfjs-converter',
  '@tensorflow/tfjs-data',
  '@tensorflow/tfjs-backend-cpu',
  '@tensorflow/tfjs-backend-webgl',
  '@tensorflow/tfjs-backend-wasm',
] as const;
const BRINGS_THE_OTHERS: readonly string[] = ENGINE_PACKAGES.slice(0, 3);

/**
 * The project's @tensorflow/tfjs and @tensorflow/tfjs-core against SUPPORTED_TFJS: ok, or one
 * message naming every @tensorflow package of the engine's outside the range, the versions found,
 * where, the supported range and the one command that upgrades them all.
 */
export function checkProjectTfjs(projectDir: string): TfjsVersionCheck {
  const found = projectTfjs(projectDir);
  const offending = found.find(isUnsupported);
  if (!offending) return { ok: true, found };
  const others = ENGINE_PACKAGES.filter((name) => !found.some((pkg) => pkg.name === name))
    .map((name) => installedPackage(name, projectDir))
    .filter((pkg): pkg is InstalledPackage => pkg !== undefined && isUnsupported(pkg) && sameSide(pkg, offending));
  const all = [...found.filter(isUnsupported), ...others];
  const upgrade = toUpgrade(all);
  // One package whose upgrade brings the others (tfjs and its hoisted tfjs-core): its own message says it all.
  const single = upgrade.length === 1 ? upgrade[0]! : undefined;
  return { ok: false, found, offending, message: single ? unsupportedTfjsMessage(single) : unsupportedPackagesMessage(all) };
}

/**
 * Which of the packages outside the range to name in the one command: those the others come with
 * (tfjs, tfjs-node), and any other the project depends on itself or that none of those brings.
 */
function toUpgrade(pkgs: readonly InstalledPackage[]): InstalledPackage[] {
  const direct = directDependencies(installDir(pkgs[0]!.manifest));
  const bringers = pkgs.filter((p) => BRINGS_THE_OTHERS.includes(p.name));
  return pkgs.filter((p) => BRINGS_THE_OTHERS.includes(p.name) || direct.has(p.name) || bringers.length === 0);
}

function isUnsupported(pkg: InstalledPackage): boolean {
  return pkg.version === undefined || !isSupportedTfjs(pkg.version);
}

/** Both too old, or both too new (an unreadable one goes with either). */
function sameSide(a: InstalledPackage, b: InstalledPackage): boolean {
  if (a.version === undefined || b.version === undefined) return true;
  return parseVersion(a.version)!.major >= SUPPORTED_TFJS.belowMajor === parseVersion(b.version)!.major >= SUPPORTED_TFJS.belowMajor;
}

/** Several packages outside the range, each named, in one message with one command (toUpgrade). */
function unsupportedPackagesMessage(pkgs: readonly InstalledPackage[]): string {
  const project = installDir(pkgs[0]!.manifest);
  const upgrade = toUpgrade(pkgs);
  const command = (range: string) => `npm install ${upgrade.map((p) => `${p.name}@${range}`).join(' ')}`;
  const listed = pkgs.map(
    (p) => `${p.name} ${p.version ?? `(no readable version: ${p.problem})`}${installDir(p.manifest) === project ? '' : ` (${path.dirname(p.manifest)})`}`,
  );
  const range = `TensorFlow.js ${SUPPORTED_TFJS_RANGE} (${supportedMajors()})`;
  const tooNew = pkgs.some((p) => p.version !== undefined && parseVersion(p.version)!.major >= SUPPORTED_TFJS.belowMajor);
  const majors = [...new Set(pkgs.map((p) => (p.version === undefined ? undefined : parseVersion(p.version)!.major)).filter((m) => m !== undefined && m < 3))];
  const notes = [
    ...(upgrade.length < pkgs.length ? [`the others come with ${upgrade.length > 1 ? 'these' : 'it'}`] : []),
    ...(majors.length ? [`or \`${command(LAST_3X)}\`, the last 3.x, a smaller step from ${majors.map((m) => `${m}.x`).join(' and ')}`] : []),
  ];
  return (
    `This project has ${listed.join(', ')} in ${path.join(project, 'node_modules')}, which tfjs-callback-debugger does not support: it supports ${range}. ` +
    `${tooNew ? 'Install supported ones' : 'Upgrade them together'} with one command in ${project}: \`${command(RECOMMENDED_TFJS)}\`${notes.length ? ` (${notes.join('; ')})` : ''}.`
  );
}

/** The names in the project's package.json dependencies of every kind (none when it has no readable one). */
function directDependencies(project: string): Set<string> {
  try {
    const json = JSON.parse(readBoundedTextSync(path.join(project, 'package.json'), { maxBytes: READ_LIMITS.manifest, what: 'package.json' })) as Record<
      string,
      unknown
    >;
    const kinds = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];
    return new Set(kinds.flatMap((kind) => (json[kind] && typeof json[kind] === 'object' ? Object.keys(json[kind]) : [])));
  } catch {
    return new Set();
  }
}

/** The TFJS_PACKAGES the project has, as its code resolves them. */
export function projectTfjs(projectDir: string): InstalledPackage[] {
  return TFJS_PACKAGES.map((name) => installedPackage(name, projectDir)).filter((pkg) => pkg !== undefined);
}

/**
 * `name` as code in `fromDir` finds it (Node's node_modules lookup, folder by folder up to the
 * root); undefined when it is not installed there. Looked up afresh each time, not through
 * require.resolve, whose cache would keep an uninstalled copy for a long-running language server.
 */
export function installedPackage(name: string, fromDir: string): InstalledPackage | undefined {
  for (let dir = path.resolve(fromDir); ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'node_modules', ...name.split('/'), 'package.json');
    if (path.basename(dir) !== 'node_modules' && existsSync(manifest)) return readManifest(name, realpathSync(manifest));
    if (path.dirname(dir) === dir) return undefined;
  }
}

function readManifest(name: string, manifest: string): InstalledPackage {
  try {
    const json = JSON.parse(readBoundedTextSync(manifest, { maxBytes: READ_LIMITS.manifest, what: `${name}'s package.json` })) as { version?: unknown } | null;
    const version = json?.version;
    if (typeof version === 'string' && parseVersion(version)) return { name, version, manifest };
    return { name, version: undefined, manifest, problem: `its version is ${JSON.stringify(version)}` };
  } catch (err) {
    return { name, version: undefined, manifest, problem: (err as Error).message.split('\n')[0]! };
  }
}

export function isSupportedTfjs(version: string): boolean {
  const v = parseVersion(version);
  return v !== undefined && compare(v, parseVersion(SUPPORTED_TFJS.min)!) >= 0 && v.major < SUPPORTED_TFJS.belowMajor;
}

/** Why `pkg` cannot serve the runtime, and what to do, in one message. */
export function unsupportedTfjsMessage(pkg: InstalledPackage): string {
  const where = path.dirname(pkg.manifest);
  const install = `\`npm install ${pkg.name}@${RECOMMENDED_TFJS}\` in ${installDir(pkg.manifest)}`;
  const range = `TensorFlow.js ${SUPPORTED_TFJS_RANGE} (${supportedMajors()})`;
  if (pkg.version === undefined) {
    return `This project's ${pkg.name} (${where}) has no readable version (${pkg.problem}): it is not a complete install. tfjs-callback-debugger supports ${range}: reinstall it with ${install}.`;
  }
  const major = parseVersion(pkg.version)!.major;
  if (major >= SUPPORTED_TFJS.belowMajor) {
    return (
      `This project has ${pkg.name} ${pkg.version} (${where}), which tfjs-callback-debugger does not support yet: it supports ${range}. ` +
      `Install a supported one with ${install}, or a tfjs-callback-debugger that supports ${major}.x.`
    );
  }
  const smallerStep = major < 3 ? ` (or ${pkg.name}@${LAST_3X}, the last 3.x, a smaller step from ${major}.x)` : '';
  return `This project has ${pkg.name} ${pkg.version} (${where}), which tfjs-callback-debugger does not support: it supports ${range}. Upgrade it with ${install}${smallerStep}.`;
}

export interface BackendCheckOptions {
  /** The program's project: looked in first, as the loader does, and where to install. */
  readonly projectDir: string;
  /** Looked in next: the runtime's own folder (its shipped packages). */
  readonly runtimeDir?: string;
  /** Default: this process's. */
  readonly nodeVersion?: string;
}

/**
 * Why the backend package `name` (@tensorflow/tfjs-backend-wasm, @tensorflow/tfjs-node) that the
 * runtime would load (the project's, else the one shipped with the runtime) cannot serve an engine
 * of tfjs-core `coreVersion`: one line, or undefined when it can or is not installed. A backend
 * registers kernels by the names of its own tfjs-core: one of another minor version registers names
 * this engine lacks ("The kernel 'undefined' for backend 'wasm' is already registered") and calls
 * helpers it lacks. And no wasm backend before 3.21 starts on Node 18 or later: it fetches its .wasm
 * with fetch() (tensorflow/tfjs#6857).
 */
export function backendPackageProblem(name: string, coreVersion: string, options: BackendCheckOptions): string | undefined {
  const pkg = installedPackage(name, options.projectDir) ?? (options.runtimeDir ? installedPackage(name, options.runtimeDir) : undefined);
  return pkg ? backendCopyProblem(pkg, coreVersion, options) : undefined;
}

/** backendPackageProblem for a copy already found (packageAt): the native backend's loop over its copies. */
export function backendCopyProblem(pkg: InstalledPackage, coreVersion: string, options: BackendCheckOptions): string | undefined {
  const core = parseVersion(coreVersion);
  if (!core) return `the engine's tfjs-core version ${JSON.stringify(coreVersion)} cannot be read`;
  const nodeMajor = Number((options.nodeVersion ?? process.versions.node).split('.')[0]);
  if (pkg.name === '@tensorflow/tfjs-backend-wasm' && nodeMajor >= 18 && compare(core, WASM_ON_NODE_18) < 0) {
    return (
      `no ${pkg.name} for tfjs-core ${coreVersion} starts on Node ${nodeMajor} (it fetches its .wasm with fetch(): tensorflow/tfjs#6857, fixed in 3.21.0); ` +
      `upgrade to @tensorflow/tfjs@${RECOMMENDED_TFJS} (or ${LAST_3X}) for wasm`
    );
  }
  const own = pkg.version === undefined ? undefined : parseVersion(pkg.version);
  if (!own) return `${pkg.name} (${path.dirname(pkg.manifest)}) has no readable version (${pkg.problem})`;
  if (own.major === core.major && own.minor === core.minor) return undefined;
  return (
    `${pkg.name} ${pkg.version} (${ownerOf(pkg.manifest)}) is built for tfjs-core ${own.major}.${own.minor}, not this project's ${coreVersion}: ` +
    `\`npm install ${pkg.name}@${coreVersion}\` in ${options.projectDir} to use it`
  );
}

/** The package in folder `dir` (its package.json's name and version). */
export function packageAt(dir: string): InstalledPackage {
  const manifest = path.join(dir, 'package.json');
  let name = path.basename(dir);
  try {
    const json = JSON.parse(readBoundedTextSync(manifest, { maxBytes: READ_LIMITS.manifest, what: 'package.json' })) as { name?: unknown } | null;
    if (typeof json?.name === 'string') name = json.name;
  } catch {
    // readManifest says why.
  }
  return readManifest(name, manifest);
}

/** The first tfjs whose own wasm backend starts on Node 18 and later. */
const WASM_ON_NODE_18: Version = { major: 3, minor: 21, patch: 0, pre: false };

/** "3.x and 4.x". */
function supportedMajors(): string {
  const majors: string[] = [];
  for (let m = parseVersion(SUPPORTED_TFJS.min)!.major; m < SUPPORTED_TFJS.belowMajor; m++) majors.push(`${m}.x`);
  return majors.length > 1 ? `${majors.slice(0, -1).join(', ')} and ${majors.at(-1)}` : majors.join('');
}

interface Version {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  /** A prerelease (3.0.0-rc.1) comes before its release. */
  readonly pre: boolean;
}

function parseVersion(text: string): Version | undefined {
  const m = /^v?(\d+)\.(\d+)\.(\d+)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.exec(text.trim());
  return m ? { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), pre: m[4] !== undefined } : undefined;
}

function compare(a: Version, b: Version): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch || Number(b.pre) - Number(a.pre);
}

/** The folder whose node_modules holds the package: where `npm install` changes it. */
function installDir(manifest: string): string {
  let dir = path.dirname(manifest);
  while (path.basename(dir) !== 'node_modules' && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.basename(dir) === 'node_modules' ? path.dirname(dir) : path.dirname(manifest);
}

/** "shipped with tfjs-callback-debugger" for the runtime's own copy, else where the package is. */
function ownerOf(manifest: string): string {
  const owner = path.join(installDir(manifest), 'package.json');
  try {
    const name = (JSON.parse(readBoundedTextSync(owner, { maxBytes: READ_LIMITS.manifest, what: 'package.json' })) as { name?: unknown } | null)?.name;
    if (name === 'tfjs-callback-debugger') return 'shipped with tfjs-callback-debugger';
  } catch {
    // No readable package.json above node_modules: say where the package is.
  }
  return path.dirname(manifest);
}
