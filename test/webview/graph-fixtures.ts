/**
 * Graphs for the graph view's tests: the real converted models of test/fixtures/tf-converted, one
 * with a hostile node name, and a generated 1,001-node model in nested name scopes.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './harness.js';

export const XSS_NAME = '<img src=x onerror=alert(1)>';

export function convertedModelPath(name: string): string {
  return path.join(root, 'test', 'fixtures', 'tf-converted', name, 'model.json');
}

/** A converted model.json, parsed. */
export function convertedModel(name: string): { modelTopology: { node: { name: string; op: string; input?: string[] }[] } } {
  return JSON.parse(readFileSync(convertedModelPath(name), 'utf8'));
}

/** cond_callback with a node whose name and op are markup, fed by `x` and feeding nothing. */
export function hostileModel(): unknown {
  const model = convertedModel('cond_callback');
  model.modelTopology.node.push({ name: XSS_NAME, op: '<script>alert(2)</script>', input: ['x'] });
  return model;
}

export const BLOCKS = 20;
export const LAYERS = 10;
/** The one callback node of the generated model (an EagerPyFunc in place of a Relu). */
export const BIG_CALLBACK = 'model/block_7/dense_3/py_relu';

/**
 * `x` then BLOCKS × LAYERS dense layers `model/block_B/dense_D/{kernel, bias, MatMul, BiasAdd, Relu}`,
 * each fed by the one before: 1 + 20 × 10 × 5 = 1,001 nodes, one of them a callback.
 */
export function bigModel(): { modelTopology: { node: { name: string; op: string; input?: string[] }[] } } {
  const node: { name: string; op: string; input?: string[] }[] = [{ name: 'x', op: 'Placeholder' }];
  let last = 'x';
  for (let b = 0; b < BLOCKS; b++) {
    for (let d = 0; d < LAYERS; d++) {
      const s = `model/block_${b}/dense_${d}`;
      const act = `${s}/Relu` === BIG_CALLBACK.replace('py_relu', 'Relu') ? BIG_CALLBACK : `${s}/Relu`;
      node.push(
        { name: `${s}/kernel`, op: 'Const' },
        { name: `${s}/bias`, op: 'Const' },
        { name: `${s}/MatMul`, op: 'MatMul', input: [last, `${s}/kernel`] },
        { name: `${s}/BiasAdd`, op: 'BiasAdd', input: [`${s}/MatMul`, `${s}/bias`] },
        { name: act, op: act === BIG_CALLBACK ? 'EagerPyFunc' : 'Relu', input: [`${s}/BiasAdd`] },
      );
      last = act;
    }
  }
  return { modelTopology: { node } };
}

type ModelJson = { modelTopology: { node: { name: string; op: string; input?: string[] }[] } };

const CHAIN_KERNELS = ['MatMul', 'BiasAdd', 'Relu', 'Mul'];

/** `x` then `count` top-level nodes each fed by the one before, named as tfFunction's export names kernels (`n<i>_<Kernel>`). */
export function flatChain(count: number): ModelJson {
  const node: ModelJson['modelTopology']['node'] = [{ name: 'x', op: 'Placeholder' }];
  for (let i = 0; i < count; i++) {
    const op = CHAIN_KERNELS[i % CHAIN_KERNELS.length]!;
    node.push({ name: `n${i}_${op}`, op, input: [node[node.length - 1]!.name] });
  }
  return { modelTopology: { node } };
}

/** The path of `depth` nested scopes `s0/s1/…`. */
export function deepPath(depth: number): string {
  return Array.from({ length: depth }, (_, i) => `s${i}`).join('/');
}

/** `x` and one Relu named `s0/s1/…/s<depth-1>/Relu`, fed by `x`. */
export function deepScope(depth: number): ModelJson {
  return {
    modelTopology: {
      node: [
        { name: 'x', op: 'Placeholder' },
        { name: `${deepPath(depth)}/Relu`, op: 'Relu', input: ['x'] },
      ],
    },
  };
}

/** `x` then a chain of `depth` nodes one scope deeper each (`a/op`, `a/a/op`, …): scopes that cannot merge. */
export function staircase(depth: number): ModelJson {
  const node: ModelJson['modelTopology']['node'] = [{ name: 'x', op: 'Placeholder' }];
  for (let i = 1; i <= depth; i++) node.push({ name: `${'a/'.repeat(i)}op`, op: 'Relu', input: [node[node.length - 1]!.name] });
  return { modelTopology: { node } };
}
