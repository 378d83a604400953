/**
 * TensorFlow's tf.py_function example: log_huber with Python-style control flow, and its gradient.
 * With x = 1 and m = 2 it takes the first branch: y = 1 and dy/dx = 2.
 */
import { pyFunction, selectBackend, tf } from 'tfjs-callback-debugger/runtime';

await selectBackend();

export function log_huber(x: tf.Tensor, m: tf.Tensor): tf.Tensor {
  if (tf.abs(x).lessEqual(m).dataSync()[0]) {
    return x.square();
  }
  return m.square().mul(
    tf
      .scalar(1)
      .sub(tf.scalar(2).mul(tf.log(m)))
      .add(tf.log(x.square())),
  );
}

const x = tf.scalar(1);
const m = tf.scalar(2);
const y = pyFunction(log_huber, [x, m], 'float32');
const dy_dx = tf.grad((xs: tf.Tensor) => pyFunction(log_huber, [xs, m], 'float32'))(x);
console.log(`log_huber: y = ${y.dataSync()[0]}, dy/dx = ${dy_dx.dataSync()[0]}`);
tf.dispose([x, m, y, dy_dx]);
