/**
 * A model's weight shards, read from its folder only: a weightsManifest path is someone else's
 * text, and `../../etc/passwd`, `/dev/zero` or a symlink out of the folder must not be read as
 * weights. Each group's shards together must hold exactly the bytes its weights declare
 * (shape × dtype), so a wrong or truncated file is caught here, not as garbage values later.
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { FileReadError, formatBytes, READ_LIMITS, readBounded } from '../bounded-read.js';
import { ModelFormatError } from '../errors.js';
import type { tf } from '../tf.js';

const BYTES_PER_ELEMENT: Readonly<Record<string, number>> = { float32: 4, int32: 4, bool: 1, complex64: 8, uint8: 1, uint16: 2, float16: 2 };

/** The shards of every group, concatenated in manifest order, as TF.js's weight decoder takes them. */
export async function readWeightShards(manifest: tf.io.WeightsManifestConfig, modelFile: string): Promise<Buffer> {
  const dir = await realpath(path.dirname(modelFile));
  const buffers: Buffer[] = [];
  for (const [g, group] of manifest.entries()) {
    const declared = declaredBytes(group.weights);
    let read = 0;
    for (const weightPath of group.paths) {
      const file = await shardFile(weightPath, dir, modelFile);
      const left = declared === undefined ? READ_LIMITS.weights : Math.min(READ_LIMITS.weights, declared - read);
      const buffer = await readShard(file, weightPath, left, declared, g, modelFile);
      read += buffer.length;
      buffers.push(buffer);
    }
    if (declared !== undefined && read !== declared) {
      throw new ModelFormatError(
        `The weight files of ${modelFile}'s weightsManifest[${g}] (${group.paths.join(', ') || 'none'}) hold ${formatBytes(read)}, ` +
          `but its ${group.weights.length} weights declare ${formatBytes(declared)} (${declared} bytes: shape × dtype): the files are truncated or belong to another model. Re-convert the model, or copy its .bin files again.`,
      );
    }
  }
  return Buffer.concat(buffers);
}

/** Bytes the weights of one group take, or undefined when one is a string (variable length). */
function declaredBytes(weights: readonly tf.io.WeightsManifestEntry[]): number | undefined {
  let total = 0;
  for (const w of weights) {
    const dtype = w.quantization?.dtype ?? w.dtype;
    const bytes = BYTES_PER_ELEMENT[dtype];
    if (bytes === undefined) return undefined;
    total += w.shape.reduce((a, b) => a * b, 1) * bytes;
  }
  return total;
}

/** The shard's real path, checked to lie inside the model's (real) folder. */
async function shardFile(weightPath: string, dir: string, modelFile: string): Promise<string> {
  const listed = `weight path ${JSON.stringify(weightPath)} in ${modelFile}'s weightsManifest`;
  const keep = `Keep the .bin files in the model's folder and list them by file name, as tensorflowjs_converter does.`;
  if (/^[a-z][a-z0-9+.-]+:/i.test(weightPath) && !path.win32.isAbsolute(weightPath)) {
    throw new ModelFormatError(
      `The ${listed} is a URL: weights are read from the model's folder (${dir}) only. Download the file there and list it by name. ${keep}`,
    );
  }
  if (path.isAbsolute(weightPath) || path.win32.isAbsolute(weightPath)) {
    throw new ModelFormatError(`The ${listed} is an absolute path: weights are read from the model's folder (${dir}) only. ${keep}`);
  }
  const joined = path.join(dir, weightPath);
  let real: string;
  try {
    real = await realpath(joined);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'is missing' : `cannot be read (${(err as Error).message})`;
    throw new ModelFormatError(`Weight file ${joined}, listed in ${modelFile}'s weightsManifest, ${why}. Keep the .bin files next to model.json.`);
  }
  if (!isInside(real, dir)) {
    throw new ModelFormatError(
      `The ${listed} resolves to ${real}, outside the model's folder ${dir}${real !== path.resolve(joined) ? ' (through a symbolic link)' : ''}: it was not read. ${keep}`,
    );
  }
  return real;
}

function isInside(file: string, dir: string): boolean {
  const rel = path.relative(dir, file);
  return rel !== '' && !rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel);
}

async function readShard(file: string, weightPath: string, maxBytes: number, declared: number | undefined, group: number, modelFile: string): Promise<Buffer> {
  try {
    return await readBounded(file, { maxBytes: Math.max(0, maxBytes), what: `Weight file` });
  } catch (err) {
    if (!(err instanceof FileReadError)) throw err;
    if (err.reason === 'too-large' && declared !== undefined && maxBytes < READ_LIMITS.weights) {
      throw new ModelFormatError(
        `Weight file ${file} (${JSON.stringify(weightPath)} in ${modelFile}'s weightsManifest[${group}]) is larger than what is left of the ${formatBytes(declared)} ` +
          `(${declared} bytes) its group's weights declare (shape × dtype): it was not read. It is not this model's weight file, or the manifest is wrong: re-convert the model.`,
      );
    }
    throw new ModelFormatError(`${err.message} It is listed in ${modelFile}'s weightsManifest[${group}]; keep the .bin files next to model.json.`);
  }
}
