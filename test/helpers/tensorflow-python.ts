/**
 * A Python with TensorFlow for the tests that build or compare against real TensorFlow:
 * TFJS_TEST_TF_PYTHON, else the venv scripts/setup-test-env.sh makes. Undefined when neither is
 * there (CI always has it: the setup installs tensorflow-cpu from the machine's pip index).
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Where scripts/setup-test-env.sh puts its TensorFlow venv (keep the two in step). */
export const TEST_VENV = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'tfjs-callback-debugger', 'tf-venv');

export const TF_PYTHON: string | undefined = process.env.TFJS_TEST_TF_PYTHON ?? (existsSync(path.join(TEST_VENV, 'bin', 'python')) ? path.join(TEST_VENV, 'bin', 'python') : undefined);
