/**
 * A tf.data input pipeline in the style of TensorFlow's image-captioning tutorial: image features
 * are cached per file name, and the map step loads them with numpyFunction, Tout [float32, int32]:
 *
 *   dataset.map(lambda img, cap: tf.numpy_function(map_func, [img, cap], [tf.float32, tf.int32]))
 */
import { NdArray, numpyFunction, selectBackend, tf } from 'tfjs-callback-debugger/runtime';

await selectBackend();

const FEATURE_SHAPE = [64, 8]; // InceptionV3 gives 64 x 2048; kept small here
const MAX_LENGTH = 8;
const captions: Record<string, string> = {
  'COCO_train2014_000000000009.jpg': 'a plate of food on a table',
  'COCO_train2014_000000000025.jpg': 'a giraffe eating leaves',
  'COCO_train2014_000000000030.jpg': 'a vase of flowers',
  'COCO_train2014_000000000034.jpg': 'a zebra standing in the grass',
};

// The tutorial caches each image's features as <image>.npy; this cache stands in for those files.
const featureCache = new Map<string, Float32Array>();
for (const [i, name] of Object.keys(captions).entries()) {
  const features = tf.tidy(() => tf.randomUniform(FEATURE_SHAPE, 0, 1, 'float32', i + 1).dataSync() as Float32Array);
  featureCache.set(name, features);
}

// A tiny tokenizer: <start> caption <end>, padded with 0 to MAX_LENGTH.
const vocabulary = new Map<string, number>([
  ['<pad>', 0],
  ['<start>', 1],
  ['<end>', 2],
]);
function tokenize(caption: string): number[] {
  const words = ['<start>', ...caption.split(' ').slice(0, MAX_LENGTH - 2), '<end>'];
  const ids = words.map((w) => vocabulary.get(w) ?? vocabulary.set(w, vocabulary.size).get(w)!);
  return [...ids, ...new Array(MAX_LENGTH - ids.length).fill(0)];
}

/** Loads the cached features of one image: the tutorial's map_func. */
function map_func(img_name: NdArray, cap: NdArray): [NdArray, NdArray] {
  const name = img_name.data[0] as string;
  const img_tensor = featureCache.get(name);
  if (!img_tensor) throw new Error(`no cached features for ${name}`);
  return [new NdArray(img_tensor, FEATURE_SHAPE, 'float32'), cap];
}

const names = Object.keys(captions);
const dataset = tf.data
  .zip({ img: tf.data.array(names), cap: tf.data.array(names.map((n) => tokenize(captions[n]!))) })
  .map((item) => {
    const { img, cap } = item as { img: string; cap: number[] };
    const [img_tensor, cap_tensor] = numpyFunction(map_func, [tf.scalar(img, 'string'), tf.tensor1d(cap, 'int32')], ['float32', 'int32']);
    return { img_tensor: img_tensor!, cap: cap_tensor! };
  })
  .batch(2);

let batches = 0;
await dataset.forEachAsync((batch) => {
  const { img_tensor, cap } = batch as unknown as { img_tensor: tf.Tensor; cap: tf.Tensor };
  console.log(`captioning batch ${batches++}: img_tensor ${img_tensor.dtype}[${img_tensor.shape}], cap ${cap.dtype}[${cap.shape}]`);
  tf.dispose([img_tensor, cap]);
});
