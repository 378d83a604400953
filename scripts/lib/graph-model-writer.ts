/**
 * Writes small TF.js graph models (model.json + one weight file) in the format tensorflowjs_converter
 * produces, so examples, tests and benchmarks use real model files without Python.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export type DT = 'DT_FLOAT' | 'DT_DOUBLE' | 'DT_INT32' | 'DT_INT64' | 'DT_STRING' | 'DT_BOOL';

export interface NodeDef {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, unknown>;
}

export interface Weight {
  name: string;
  shape: number[];
  values: Float32Array;
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const dims = (shape: number[]) => ({ dim: shape.map((size) => ({ size: String(size) })) });

export const placeholder = (name: string, shape: number[], dtype: DT = 'DT_FLOAT'): NodeDef => ({
  name,
  op: 'Placeholder',
  attr: { dtype: { type: dtype }, shape: { shape: dims(shape) } },
});

export const constWeight = (name: string, shape: number[]): NodeDef => ({
  name,
  op: 'Const',
  attr: { value: { tensor: { dtype: 'DT_FLOAT', tensorShape: dims(shape) } }, dtype: { type: 'DT_FLOAT' } },
});

export const unary = (name: string, op: string, input: string): NodeDef => ({ name, op, input: [input], attr: { T: { type: 'DT_FLOAT' } } });

export const matMul = (name: string, a: string, b: string): NodeDef => ({
  name,
  op: 'MatMul',
  input: [a, b],
  attr: { T: { type: 'DT_FLOAT' }, transpose_a: { b: false }, transpose_b: { b: false } },
});

/**
 * A callback node as TensorFlow writes it: the token base64-encoded, Tin/Tout as DT_* lists (an
 * empty list as `{"list": {}}`), and, as tensorflowjs_converter keeps it, the
 * `_has_manual_control_dependencies` attr TensorFlow sets on these stateful ops.
 */
export const callbackNode = (
  name: string,
  op: 'EagerPyFunc' | 'PyFunc' | 'PyFuncStateless',
  inputs: string[],
  token: string,
  Tin: DT[],
  Tout: DT[],
): NodeDef => ({
  name,
  op,
  input: inputs,
  attr: {
    token: { s: b64(token) },
    Tin: { list: Tin.length ? { type: Tin } : {} },
    Tout: { list: Tout.length ? { type: Tout } : {} },
    _has_manual_control_dependencies: { b: true },
    ...(op === 'EagerPyFunc' ? { is_async: { b: false } } : {}),
  },
});

/** A NoOp that only orders: runs after `after` (control inputs), as the converter writes them. */
export const noOp = (name: string, after: string[]): NodeDef => ({
  name,
  op: 'NoOp',
  input: after.map((n) => `^${n}`),
  attr: { _has_manual_control_dependencies: { b: true } },
});

/** A library function (FunctionDef), as control flow v2 writes a branch or loop body. */
export interface FunctionDef {
  signature: { name: string; inputArg: { name: string; type: DT }[]; outputArg: { name: string; type: DT }[] };
  nodeDef: NodeDef[];
  /** Output arg name → `node:output:index`-style tensor name. */
  ret: Record<string, string>;
}

export function writeGraphModel(dir: string, nodes: NodeDef[], weights: Weight[] = [], functions: FunctionDef[] = []): string {
  mkdirSync(dir, { recursive: true });
  const weightFile = 'group1-shard1of1.bin';
  const model = {
    format: 'graph-model',
    generatedBy: '2.16.1',
    convertedBy: 'TensorFlow.js Converter v4.22.0 (written by scripts/lib/graph-model-writer.ts)',
    modelTopology: { node: nodes, library: functions.length ? { function: functions } : {}, versions: { producer: 1482 } },
    weightsManifest: [{ paths: weights.length ? [weightFile] : [], weights: weights.map((w) => ({ name: w.name, shape: w.shape, dtype: 'float32' })) }],
  };
  const file = path.join(dir, 'model.json');
  writeFileSync(file, `${JSON.stringify(model, null, 2)}\n`);
  if (weights.length) {
    const bytes = Buffer.concat(weights.map((w) => Buffer.from(w.values.buffer, w.values.byteOffset, w.values.byteLength)));
    writeFileSync(path.join(dir, weightFile), bytes);
  }
  return file;
}

/** Deterministic pseudo-random weights (no Math.random: example files stay byte-stable). */
export function seededWeights(count: number, seed = 1): Float32Array {
  const out = new Float32Array(count);
  let s = seed >>> 0;
  for (let i = 0; i < count; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = (s / 2 ** 32) * 2 - 1;
  }
  return out;
}
