/**
 * Finds the TensorFlow a user already has, for setup-native: a Python environment's `tensorflow`
 * (or `tensorflow-cpu`, `tensorflow-gpu`…) package, or a wheel file. Python is asked where the
 * package is without importing it (an import takes seconds and prints logs).
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { askPython, type PythonAnswer } from './python-answer.js';
import { listMembers, unpackMembers, unsafeName, WheelError } from './wheel-zip.js';

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
export function fromPython(python?: string, options: { readonly timeoutMs?: number } = {}): FoundTensorFlow {
  const candidates = python ? [python] : ['python3', 'python'];
  let answer: PythonAnswer | undefined;
  const tried: string[] = [];
  for (const exe of candidates) {
    const asked = askPython(exe, LOCATE, options.timeoutMs);
    if ('python' in asked) {
      answer = asked;
      break;
    }
    tried.push(`${exe}: ${asked.why}`);
  }
  if (!answer) {
    throw new NativeSetupError(
      `No Python to find TensorFlow with (${tried.join('; ')}). Install TensorFlow into a Python environment (python3 -m venv ~/tf && ~/tf/bin/pip install tensorflow-cpu) and pass --python ~/tf/bin/python, or pass --wheel <tensorflow-*.whl>.`,
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

/** At most this much is unpacked from a wheel (TensorFlow 2.21's libraries and headers: 1.1 GB). */
export const WHEEL_CAP = 4 * 2 ** 30;

/** The wheel's version, checked, from its file name. */
export function wheelVersion(wheel: string): string {
  const file = path.resolve(wheel);
  if (!existsSync(file)) throw new NativeSetupError(`--wheel ${wheel}: no such file.`);
  const version = /^tensorflow(?:[-_](?:cpu|gpu|intel))?-(\d[^-]*)-/.exec(path.basename(file))?.[1];
  if (!version)
    throw new NativeSetupError(`--wheel ${wheel}: not a TensorFlow wheel (expected a name like tensorflow_cpu-2.21.0-cp311-cp311-manylinux_2_27_x86_64.whl).`);
  supported(version, file);
  return version;
}

/**
 * TensorFlow from a wheel file: its libraries and headers unpacked into `into`, a folder that must
 * not exist yet (wheel-zip.ts writes regular files and folders only, under a size cap).
 */
export async function fromWheel(wheel: string, into: string, cap = WHEEL_CAP): Promise<FoundTensorFlow> {
  const version = wheelVersion(wheel);
  const file = path.resolve(wheel);
  try {
    const members = listMembers(file);
    for (const m of members) {
      const unsafe = unsafeName(m.name);
      if (unsafe) throw new WheelError(`its member ${JSON.stringify(m.name)} ${unsafe}`);
    }
    // Only what the build needs: the two libraries and the headers (a wheel is ~1.3 GB unpacked).
    const wanted = members.filter((m) => WANTED.includes(m.name) || m.name.startsWith('tensorflow/include/'));
    mkdirSync(into);
    await unpackMembers(file, wanted, into, cap);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code) throw new NativeSetupError(`--wheel ${wheel}: could not read it or unpack it into ${into} (${(err as Error).message}).`);
    if (!(err instanceof WheelError)) throw err;
    throw new NativeSetupError(
      `--wheel ${wheel}: ${err.message}. Nothing of it was kept. A wheel from PyPI has none of this: download it again (pip download --no-deps tensorflow-cpu==${version}).`,
    );
  }
  const dir = path.join(into, 'tensorflow');
  return checked({ version, libDir: dir, includeDir: path.join(dir, 'include'), from: file });
}

const WANTED: readonly string[] = LIBRARIES.map((l) => `tensorflow/${l}`);

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
