/**
 * `tfjs-callbacks setup-native`: the native TensorFlow backend without tfjs-node's download.
 * tfjs-node's npm tarball ships its C++ binding; it builds with node-gyp against the TensorFlow a
 * user already has (a pip package's libtensorflow_cc.so.2, libtensorflow_framework.so.2 and
 * headers). The build lives in a cache folder (cache.ts), is checked against cpu with a matMul,
 * and is what the runtime's auto backend then loads (backend.ts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, realpathSync, rmdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { READ_LIMITS, readBoundedTextSync } from '../bounded-read.js';
import { buildDir, hasBuild, napiVersionFor, nativeRoot, packageDir, readRecord, recordFile, type NativeBuildRecord } from './cache.js';
import { fromPython, fromWheel, LIBRARIES, NativeSetupError, wheelVersion, type FoundTensorFlow } from './find-tensorflow.js';
import { builtFromWheel, newWheelFolder, removeOtherWheelFolders } from './wheel-folders.js';
import { projectTfjsVersion } from './installed.js';

export { NativeSetupError };

export interface SetupOptions {
  readonly python?: string;
  readonly wheel?: string;
  /** The project whose @tensorflow/tfjs version the build matches (default: the working directory). */
  readonly projectDir?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Progress, one line at a time. */
  readonly say: (line: string) => void;
}

export interface SetupResult {
  readonly build: string;
  readonly record: NativeBuildRecord;
  readonly seconds: number;
  readonly diskMiB: number;
  readonly check: NativeCheck;
}

/** What the check (check.ts, in a child process) found. */
export interface NativeCheck {
  readonly backend: string;
  readonly maxAbsDiff: number;
  readonly tensorflowVersion: string;
}

export async function setupNative(options: SetupOptions): Promise<SetupResult> {
  const started = Date.now();
  const { say } = options;
  if (process.platform !== 'linux') {
    throw new NativeSetupError(
      `setup-native builds on Linux only (this is ${process.platform}). On macOS and Windows, npm install @tensorflow/tfjs-node uses its prebuilt binary.`,
    );
  }
  const projectDir = path.resolve(options.projectDir ?? process.cwd());
  const version = tfjsVersion(projectDir);
  if (options.wheel) wheelVersion(options.wheel);
  const root = nativeRoot(options.env);
  const build = buildDir(root, version);
  // What this run makes goes again if it fails: nothing is left behind a failed first run.
  const made = [root, build].filter((dir) => !existsSync(dir));
  mkdirSync(build, { recursive: true });
  const previous = readRecord(build);
  if (options.wheel && previous && hasBuild(build) && builtFromWheel(previous, options.wheel)) {
    say(`reusing the build of ${previous.builtAt} from this wheel (${build})`);
    return resultOf(started, build, previous, runCheck(root, projectDir, options.env));
  }
  // A wheel is unpacked into a folder of this attempt's own, removed if the attempt fails.
  const unpacked = options.wheel ? newWheelFolder(build, previous) : undefined;
  let linked = false;
  try {
    const tf = unpacked ? await fromWheel(options.wheel!, unpacked) : fromPython(options.python);
    say(`TensorFlow ${tf.version}: ${tf.from}`);
    for (const [tool, hint] of [
      ['g++', 'a C++ compiler'],
      ['make', 'make'],
    ] as const) {
      if (!runs(tool, ['--version']))
        throw new NativeSetupError(
          `No ${tool} on the PATH: the binding is C++ built with node-gyp and needs ${hint} (Debian/Ubuntu: sudo apt-get install -y build-essential).`,
        );
    }

    const pkg = packageDir(build);
    if (previous && hasBuild(build) && previous.tensorflow.libDir === tf.libDir && previous.tensorflow.version === tf.version) {
      say(`reusing the build of ${previous.builtAt} against this TensorFlow (${build})`);
      return resultOf(started, build, previous, runCheck(root, projectDir, options.env));
    }
    if (!existsSync(path.join(pkg, 'binding.gyp')) || readVersion(pkg) !== version) {
      say(`fetching @tensorflow/tfjs-node@${version} from npm (its sources; no install scripts, no download of libtensorflow)`);
      installPackage(build, version);
    }
    pruneEngines(build);
    linked = true;
    link(pkg, tf);

    const published = (JSON.parse(readManifest(pkg)) as { binary: { napi_versions: number[] } }).binary.napi_versions;
    const napi = napiVersionFor(published);
    say(`building the binding with node-gyp (N-API ${napi}, ${os.availableParallelism()} jobs)…`);
    const buildStarted = Date.now();
    compile(pkg, napi);
    const buildSeconds = (Date.now() - buildStarted) / 1000;

    const record: NativeBuildRecord = {
      tfjsNodeVersion: version,
      napiVersion: napi,
      tensorflow: { version: tf.version, libDir: tf.libDir, includeDir: tf.includeDir, from: tf.from },
      builtAt: new Date().toISOString(),
      buildSeconds,
    };
    writeFileSync(recordFile(build), `${JSON.stringify(record, null, 2)}\n`);
    const check = runCheck(root, projectDir, options.env);
    if (unpacked) removeOtherWheelFolders(build, unpacked);
    return resultOf(started, build, record, check);
  } catch (err) {
    if (unpacked) rmSync(unpacked, { recursive: true, force: true });
    // The build links what this attempt found: no record may call it ready.
    if (linked) rmSync(recordFile(build), { force: true });
    for (const dir of made.reverse()) removeIfEmpty(dir);
    throw err;
  }
}

function resultOf(started: number, build: string, record: NativeBuildRecord, check: NativeCheck): SetupResult {
  return { build, record, seconds: (Date.now() - started) / 1000, diskMiB: diskUsage(build) / 2 ** 20, check };
}

/** Removes the build setup-native made for this project's tfjs version; says what it removed. */
export function undoNative(options: Pick<SetupOptions, 'projectDir' | 'env'>): string | undefined {
  const root = nativeRoot(options.env);
  const build = buildDir(root, tfjsVersion(options.projectDir ?? process.cwd()));
  if (!existsSync(build)) return undefined;
  rmSync(build, { recursive: true, force: true });
  removeIfEmpty(root);
  return build;
}

function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // not empty (other builds), or gone: kept as it is
  }
}

/** The @tensorflow/tfjs version the project runs (else the runtime's own): tfjs-node must match it. */
function tfjsVersion(projectDir: string): string {
  const version = projectTfjsVersion(projectDir) ?? projectTfjsVersion(path.dirname(fileURLToPath(import.meta.url)));
  if (!version) throw new NativeSetupError('No @tensorflow/tfjs found, in the project or with the runtime.');
  return version;
}

/** The package.json of the tfjs-node in `pkg`, read bounded as every package.json is. */
function readManifest(pkg: string): string {
  return readBoundedTextSync(path.join(pkg, 'package.json'), { maxBytes: READ_LIMITS.manifest, what: "tfjs-node's package.json" });
}

function readVersion(pkg: string): string | undefined {
  try {
    return (JSON.parse(readManifest(pkg)) as { version: string }).version;
  } catch {
    return undefined;
  }
}

function runs(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

function installPackage(build: string, version: string): void {
  const result = spawnSync(
    'npm',
    ['install', '--prefix', build, '--ignore-scripts', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `@tensorflow/tfjs-node@${version}`],
    {
      encoding: 'utf8',
      timeout: 600_000,
    },
  );
  if (result.status !== 0) {
    const why = result.error
      ? (result.error as NodeJS.ErrnoException).code === 'ENOENT'
        ? 'npm is not on the PATH'
        : result.error.message
      : lastLines(result.stderr, 3);
    throw new NativeSetupError(`Could not fetch @tensorflow/tfjs-node@${version} from the npm registry: ${why}`);
  }
}

/**
 * The build keeps tfjs-node alone: its own copies of @tensorflow/tfjs would be a second engine
 * (load.ts answers those requires with the runtime's engine), and they are 270 MB.
 */
function pruneEngines(build: string): void {
  const scope = path.join(build, 'node_modules', '@tensorflow');
  for (const name of existsSync(scope) ? readdirSync(scope) : []) {
    if (name !== 'tfjs-node') rmSync(path.join(scope, name), { recursive: true, force: true });
  }
}

/**
 * Where binding.gyp looks: deps/include for the headers, deps/lib for -ltensorflow and
 * -ltensorflow_framework at link time and, through the binding's rpath, the sonames at run time.
 */
function link(pkg: string, tf: FoundTensorFlow): void {
  const deps = path.join(pkg, 'deps');
  rmSync(deps, { recursive: true, force: true });
  mkdirSync(path.join(deps, 'lib'), { recursive: true });
  symlinkSync(tf.includeDir, path.join(deps, 'include'));
  const [cc, framework] = LIBRARIES;
  for (const lib of LIBRARIES) symlinkSync(path.join(tf.libDir, lib), path.join(deps, 'lib', lib));
  symlinkSync(path.join(tf.libDir, cc), path.join(deps, 'lib', 'libtensorflow.so'));
  symlinkSync(path.join(tf.libDir, framework), path.join(deps, 'lib', 'libtensorflow_framework.so'));
}

function compile(pkg: string, napi: number): void {
  const node = buildNode();
  const args = [
    ...nodeGyp(node),
    'rebuild',
    `--napi_build_version=${napi}`,
    '--module_name=tfjs_binding',
    `--module_path=${path.join(pkg, 'lib', `napi-v${napi}`)}`,
    '-j',
    String(os.availableParallelism()),
    ...nodeDir(node),
  ];
  const result = spawnSync(args[0]!, args.slice(1), { cwd: pkg, encoding: 'utf8', timeout: 900_000, maxBuffer: 64 * 2 ** 20 });
  if (result.status === 0) return;
  const output = `${result.stdout ?? ''}\n${result.stderr ?? ''}`;
  const firstError = output.split('\n').find((l) => /\berror\b/i.test(l) && !/^gyp (ERR|info)/.test(l));
  throw new NativeSetupError(
    `The binding did not build: ${firstError?.trim() ?? lastLines(output, 5)} (in ${pkg}; the whole log: cd there and run ${args.join(' ')})`,
  );
}

/**
 * The Node that runs node-gyp: the one on the PATH (in VS Code this process is Electron's, whose
 * headers no one has installed). The binding is N-API: built once, it loads in any Node with N-API 8.
 */
function buildNode(): string {
  const found = spawnSync('sh', ['-c', 'command -v node'], { encoding: 'utf8' }).stdout?.trim();
  return found ? realpathSync(found) : process.execPath;
}

/** node-gyp as npm ships it (no download), else npx's. */
function nodeGyp(node: string): string[] {
  try {
    const prefix = execFileSync('npm', ['prefix', '-g'], { encoding: 'utf8' }).trim();
    const bundled = path.join(prefix, 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
    if (existsSync(bundled)) return [node, bundled];
  } catch {
    // no npm on the PATH: npx below says so
  }
  return ['npx', '--yes', 'node-gyp'];
}

/** That Node's headers when its install has them (Linux packages and tarballs do): no download. */
function nodeDir(node: string): string[] {
  const dir = path.resolve(path.dirname(node), '..');
  return existsSync(path.join(dir, 'include', 'node', 'node_api.h')) ? [`--nodedir=${dir}`] : [];
}

/** Loads the build the way the runtime will, in a child process, and compares a matMul with cpu. */
/**
 * The check, in a child that runs as a program of the project would (the loader, so the engine is
 * the project's tfjs, for which the build was made). Its failure carries the loader's whole message.
 */
function runCheck(root: string, projectDir: string, env: NodeJS.ProcessEnv | undefined): NativeCheck {
  const here = fileURLToPath(import.meta.url);
  const ext = path.extname(here);
  const script = path.join(path.dirname(here), `check${ext}`);
  const register = pathToFileURL(path.join(path.dirname(here), '..', 'loader', `register${ext}`)).href;
  const result = spawnSync(process.execPath, [...process.execArgv, '--import', register, script], {
    cwd: projectDir,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...(env ?? process.env), TFJS_CALLBACKS_NATIVE_DIR: root, TFJS_BACKEND: 'tensorflow', TFJS_CALLBACKS_PROJECT_DIR: projectDir },
  });
  const last = result.stdout?.trim().split('\n').at(-1) ?? '';
  const answer = last.startsWith('{') ? (JSON.parse(last) as NativeCheck | { error: string }) : undefined;
  if (result.status === 0 && answer && !('error' in answer)) return answer;
  const why = answer && 'error' in answer ? answer.error : (result.stderr ?? '').trim() || `the check exited with code ${result.status}`;
  throw new NativeSetupError(`The binding built but does not load: ${why}`);
}

function lastLines(text: string | undefined, n: number): string {
  return (text ?? '').trim().split('\n').slice(-n).join(' | ');
}

/** Bytes of the files under `dir`, links not followed (TensorFlow's libraries stay where they are). */
function diskUsage(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(entry.parentPath ?? dir, entry.name);
    if (entry.isDirectory()) total += diskUsage(file);
    else if (!entry.isSymbolicLink()) total += lstatSync(file).size;
  }
  return total;
}

/** The lines setup-native ends with: what it did, what it cost, how to undo it. */
export function describeSetup(result: SetupResult): string[] {
  const { record, check } = result;
  return [
    `✓ native backend ready: @tensorflow/tfjs-node ${record.tfjsNodeVersion} built against TensorFlow ${record.tensorflow.version} in ${record.buildSeconds.toFixed(0)} s (${result.seconds.toFixed(0)} s in all)`,
    `  checked: backend '${check.backend}' loads (TF_Version ${check.tensorflowVersion}); matMul 128x128 equals cpu's within ${check.maxAbsDiff.toExponential(1)}`,
    record.tensorflow.from.endsWith('.whl')
      ? `  disk: ${result.diskMiB.toFixed(0)} MiB in ${result.build} (most of it TensorFlow's libraries, unpacked from the wheel)`
      : `  disk: ${result.diskMiB.toFixed(0)} MiB in ${result.build} (TensorFlow's libraries are linked from ${record.tensorflow.libDir}, not copied)`,
    `  auto now picks tensorflow for every project on this machine using @tensorflow/tfjs ${record.tfjsNodeVersion} (Run Graph, Debug Graph, tfjs-callbacks run).`,
    `  undo: tfjs-callbacks setup-native --undo (or rm -rf ${result.build})`,
  ];
}
