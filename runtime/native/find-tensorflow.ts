/**
 * Finds the TensorFlow a user already has, for setup-native: a Python environment's `tensorflow`
 * (or `tensorflow-cpu`, `tensorflow-gpu`…) package, or a wheel file. Python is asked where the
 * package is without importing it (an import takes seconds and prints logs).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

export class NativeSetupError extends Error {}

export interface FoundTensorFlow {
  readonly version: string;
  /** Folder of libtensorflow_cc.so.2 and libtensorflow_framework.so.2. */
  readonly libDir: string;
  /** Folder holding tensorflow/c/c_api.h. */
  readonly includeDir: string;
  /** Where it came from, for the report: "python3 (/path/site-packages/tensorflow)" or the wheel. */
  readonly from: string;
}

/** The libraries tfjs-node's binding links (Linux names): the TF and TFE C APIs, and the framework. */
export const LIBRARIES = ['libtensorflow_cc.so.2', 'libtensorflow_framework.so.2'] as const;

/** The oldest TensorFlow whose C API the binding was checked against (tfjs-node 4.22 ships 2.9.1). */
const MIN_MINOR = 9;

const LOCATE = `
import importlib.metadata as m, importlib.util as u, json, sys
spec = u.find_spec("tensorflow")
if spec is None or not spec.submodule_search_locations:
    print(json.dumps({"python": sys.executable})); sys.exit(0)
version = None
for dist in ("tensorflow", "tensorflow-cpu", "tensorflow-gpu", "tensorflow-intel", "tf-nightly", "tf-nightly-cpu"):
    try:
        version = m.version(dist); break
    except m.PackageNotFoundError:
        pass
print(json.dumps({"python": sys.executable, "dir": list(spec.submodule_search_locations)[0], "version": version}))
`;

/** TensorFlow from a Python: the one named, else python3, else python on the PATH. */
export function fromPython(python?: string): FoundTensorFlow {
  const candidates = python ? [python] : ['python3', 'python'];
  let answer: { python: string; dir?: string; version?: string | null } | undefined;
  let tried = '';
  for (const exe of candidates) {
    try {
      answer = JSON.parse(
        execFileSync(exe, ['-c', LOCATE], { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] })
          .trim()
          .split('\n')
          .at(-1)!,
      );
      break;
    } catch (err) {
      const e = err as NodeJS.ErrnoException & { stderr?: string };
      tried += `${tried ? '; ' : ''}${exe}: ${e.code === 'ENOENT' ? 'not found' : (e.stderr?.trim().split('\n').at(-1) ?? e.message)}`;
    }
  }
  if (!answer) {
    throw new NativeSetupError(
      `No Python to find TensorFlow with (${tried}). Install TensorFlow into a Python environment (python3 -m venv ~/tf && ~/tf/bin/pip install tensorflow-cpu) and pass --python ~/tf/bin/python, or pass --wheel <tensorflow-*.whl>.`,
    );
  }
  if (!answer.dir) {
    throw new NativeSetupError(
      `${answer.python} has no TensorFlow package. Install it there (${answer.python} -m pip install tensorflow-cpu), or pass --python with the Python of an environment that has it, or --wheel <tensorflow-*.whl>.`,
    );
  }
  return checked({
    version: answer.version ?? 'unknown',
    libDir: answer.dir,
    includeDir: path.join(answer.dir, 'include'),
    from: `${answer.python} (${answer.dir})`,
  });
}

/** TensorFlow from a wheel file: its libraries and headers unpacked into `into`. */
export function fromWheel(wheel: string, into: string): FoundTensorFlow {
  const file = path.resolve(wheel);
  if (!existsSync(file)) throw new NativeSetupError(`--wheel ${wheel}: no such file.`);
  const version = /^tensorflow(?:[-_](?:cpu|gpu|intel))?-(\d[^-]*)-/.exec(path.basename(file))?.[1];
  if (!version)
    throw new NativeSetupError(`--wheel ${wheel}: not a TensorFlow wheel (expected a name like tensorflow_cpu-2.21.0-cp311-cp311-manylinux_2_27_x86_64.whl).`);
  supported(version, file);
  mkdirSync(into, { recursive: true });
  // Only what the build needs: the two libraries and the headers (a wheel is ~250 MB unpacked).
  const wanted = [...LIBRARIES.map((l) => `tensorflow/${l}`), 'tensorflow/include/*'];
  try {
    execFileSync('unzip', ['-q', '-o', file, ...wanted, '-d', into], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 600_000 });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: Buffer };
    throw new NativeSetupError(
      `--wheel ${wheel}: could not unpack it (${e.code === 'ENOENT' ? 'no `unzip` command: install unzip' : (e.stderr?.toString().trim() ?? e.message)}).`,
    );
  }
  const dir = path.join(into, 'tensorflow');
  return checked({ version, libDir: dir, includeDir: path.join(dir, 'include'), from: file });
}

/** A 2.x the binding works with. */
function supported(version: string, from: string): void {
  const [major, minor] = version.split('.').map(Number);
  if (major !== 2 || minor === undefined || minor < MIN_MINOR) {
    throw new NativeSetupError(
      `TensorFlow ${version} at ${from} is not supported: setup-native builds against TensorFlow 2.${MIN_MINOR} or newer 2.x (pip install "tensorflow-cpu>=2.${MIN_MINOR},<3").`,
    );
  }
}

/** A supported version whose libraries and headers are there. */
function checked(found: FoundTensorFlow): FoundTensorFlow {
  supported(found.version, found.from);
  const missing = [...LIBRARIES.map((l) => path.join(found.libDir, l)), path.join(found.includeDir, 'tensorflow', 'c', 'c_api.h')].filter(
    (f) => !existsSync(f),
  );
  if (missing.length > 0) {
    throw new NativeSetupError(
      `TensorFlow ${found.version} at ${found.from} lacks ${missing.join(', ')}: it is not a full Linux TensorFlow package (a pip install of tensorflow or tensorflow-cpu has them).`,
    );
  }
  return found;
}
