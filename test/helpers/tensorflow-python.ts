/**
 * A Python with TensorFlow for the tests that build or compare against real TensorFlow:
 * TFJS_TEST_TF_PYTHON, else the venv scripts/setup-test-env.sh makes. Undefined when neither is
 * there (CI always has it: the setup installs tensorflow-cpu from the machine's pip index).
 */
import { existsSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Where scripts/setup-test-env.sh puts its TensorFlow venv (keep the two in step). */
export const TEST_VENV = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'tfjs-callback-debugger', 'tf-venv');

export const TF_PYTHON: string | undefined =
  process.env.TFJS_TEST_TF_PYTHON ?? (existsSync(path.join(TEST_VENV, 'bin', 'python')) ? path.join(TEST_VENV, 'bin', 'python') : undefined);

/** A TensorFlow wheel for setup-native's --wheel: TFJS_TEST_TF_WHEEL, else the machine's local pip index's. */
export const TF_WHEEL: string | undefined = process.env.TFJS_TEST_TF_WHEEL ?? localWheel();

function localWheel(): string | undefined {
  const dir = '/opt/pypi/files';
  const found = existsSync(dir) ? readdirSync(dir).find((f) => /^tensorflow_cpu-2\.\d+\.\d+-.*linux.*x86_64\.whl$/.test(f)) : undefined;
  return found && process.arch === 'x64' ? path.join(dir, found) : undefined;
}
