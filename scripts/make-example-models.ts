/**
 * Regenerates the example models in examples/models/ (committed; run after changing this file).
 *   npx tsx scripts/make-example-models.ts
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { callbackNode, constWeight, matMul, placeholder, seededWeights, unary, writeGraphModel } from './lib/graph-model-writer.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'examples', 'models');
const features = 16;
const weights = [{ name: 'dense/kernel', shape: [features, features], values: seededWeights(features * features, 7) }];

// x → dense → standardize (a JS callback, EagerPyFunc) → relu
writeGraphModel(
  path.join(root, 'standardize'),
  [
    placeholder('x', [-1, features]),
    constWeight('dense/kernel', [features, features]),
    matMul('dense/MatMul', 'x', 'dense/kernel'),
    callbackNode('standardize', 'EagerPyFunc', ['dense/MatMul'], 'pyfunc_0', ['DT_FLOAT'], ['DT_FLOAT']),
    unary('Relu', 'Relu', 'standardize'),
  ],
  weights,
);

// The same graph with the callback step written as tf ops (tanh), for the benchmark baseline,
// and its callback twin (EagerPyFunc computing tanh in a JS callback).
writeGraphModel(
  path.join(root, 'tanh-ops'),
  [
    placeholder('x', [-1, features]),
    constWeight('dense/kernel', [features, features]),
    matMul('dense/MatMul', 'x', 'dense/kernel'),
    unary('activation', 'Tanh', 'dense/MatMul'),
    unary('Relu', 'Relu', 'activation'),
  ],
  weights,
);
writeGraphModel(
  path.join(root, 'tanh-callback'),
  [
    placeholder('x', [-1, features]),
    constWeight('dense/kernel', [features, features]),
    matMul('dense/MatMul', 'x', 'dense/kernel'),
    callbackNode('activation', 'EagerPyFunc', ['dense/MatMul'], 'pyfunc_0', ['DT_FLOAT'], ['DT_FLOAT']),
    unary('Relu', 'Relu', 'activation'),
  ],
  weights,
);
console.log(`wrote models under ${root}`);
