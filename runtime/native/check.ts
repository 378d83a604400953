/**
 * setup-native's check, run in a child process as a program would run: the runtime selects
 * 'tensorflow' (TFJS_BACKEND), and a matMul on it is compared with the same one on cpu. Prints one
 * JSON line: setup.ts `NativeCheck`, or `{ error }` with the whole message of what failed.
 */
import { selectBackend } from '../backend.js';
import { tf } from '../tf.js';
import type { NativeCheck } from './setup.js';

try {
  const report = await selectBackend({ quiet: true });
  const a = tf.randomUniform([128, 128], -1, 1, 'float32', 7);
  const b = tf.randomUniform([128, 128], -1, 1, 'float32', 8);
  const native = tf.matMul(a, b).dataSync();
  await tf.setBackend('cpu');
  const cpu = tf.matMul(tf.tensor(a.dataSync(), a.shape), tf.tensor(b.dataSync(), b.shape)).dataSync();
  let maxAbsDiff = 0;
  for (let i = 0; i < cpu.length; i++) maxAbsDiff = Math.max(maxAbsDiff, Math.abs(native[i]! - cpu[i]!));
  await tf.setBackend(report.backend);
  const binding = (tf.backend() as unknown as { binding?: { TF_Version?: string } }).binding;
  const check: NativeCheck = { backend: report.backend, maxAbsDiff, tensorflowVersion: binding?.TF_Version ?? 'unknown' };
  console.log(JSON.stringify(check));
} catch (err) {
  console.log(JSON.stringify({ error: err instanceof Error ? err.message : String(err) }));
  process.exitCode = 1;
}
