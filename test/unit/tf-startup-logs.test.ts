/**
 * TensorFlow's startup pair is dropped from a program's stderr however the pipe splits it; every
 * other byte passes through unchanged, and a partial line that cannot become the pair is not held.
 * The lines are the ones TensorFlow 2.21 printed here (tfjs-node built by setup-native).
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import { dropsTfStartupLines, filterTfStartupLines, TfStartupFilter } from '../../runtime/tf-startup-logs.js';

const ABSL = 'WARNING: All log messages before absl::InitializeLog() is called are written to STDERR';
const ONEDNN =
  'I0000 00:00:1795697789.151368   26087 port.cc:153] oneDNN custom operations are on. You may see slightly different numerical results due to floating-point round-off errors from different computation orders. To turn them off, set the environment variable `TF_ENABLE_ONEDNN_OPTS=0`.';

function through(chunks: string[]): string {
  const filter = new TfStartupFilter();
  return chunks.map((c) => filter.push(c)).join('') + filter.flush();
}

describe("TensorFlow's startup lines", () => {
  test('the pair is dropped, the program’s own lines around it kept, split at every character', () => {
    const text = `before\n${ABSL}\n${ONEDNN}\nafter: Error at x\n`;
    assert.equal(through([text]), 'before\nafter: Error at x\n');
    for (let at = 1; at < text.length; at++) {
      assert.equal(through([text.slice(0, at), text.slice(at)]), 'before\nafter: Error at x\n', `split at ${at}`);
    }
    assert.equal(through([...text]), 'before\nafter: Error at x\n', 'one character at a time');
  });

  test('CRLF endings, and each line only the first time it comes', () => {
    assert.equal(through([`${ABSL}\r\n${ONEDNN}\r\nx\r\n`]), 'x\r\n');
    assert.equal(through([`${ABSL}\n${ABSL}\n${ONEDNN}\n${ONEDNN}\n`]), `${ABSL}\n${ONEDNN}\n`);
  });

  test('lines that only look like them pass: other TensorFlow logs, a WARNING of the program, an I… line', () => {
    const others = [
      'I0000 00:00:1795697789.151368   26087 cpu_feature_guard.cc:210] This TensorFlow binary is optimized to use available CPU instructions',
      'WARNING: the learning rate is high',
      'I think so',
      `${ABSL} (and more)`,
      `prefix ${ONEDNN}`,
    ];
    const text = `${others.join('\n')}\n`;
    assert.equal(through([text]), text);
  });

  test('a partial line passes at once unless it may become one of the pair', () => {
    const filter = new TfStartupFilter();
    assert.equal(filter.push('progress: 10%'), 'progress: 10%');
    assert.equal(filter.push('\rprogress: 20%'), '\rprogress: 20%');
    assert.equal(filter.push('\nWARN'), '\n');
    assert.ok(filter.holding, 'WARN may become the absl line');
    assert.equal(filter.push('ING: disk full\n'), 'WARNING: disk full\n');
    assert.equal(filter.push('I0000 00:00'), '');
    assert.equal(filter.flush(), 'I0000 00:00');
  });

  test('on a stream: a held partial line goes out after 100 ms, the rest at the end', async () => {
    const source = new PassThrough();
    const seen: string[] = [];
    const ended = new Promise<void>((resolve) => filterTfStartupLines(source, (t) => seen.push(t), resolve));
    source.write(`${ABSL}\nWARN`);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(seen, ['WARN'], 'the partial line was let go while the stream stayed quiet');
    source.end('ING\nlast');
    await ended;
    assert.equal(seen.join(''), 'WARNING\nlast');
  });

  test('TF_CPP_MIN_LOG_LEVEL=0 keeps them', () => {
    assert.equal(dropsTfStartupLines({ TF_CPP_MIN_LOG_LEVEL: '0' }), false);
    for (const level of [undefined, '1', '2', '3']) assert.equal(dropsTfStartupLines({ TF_CPP_MIN_LOG_LEVEL: level }), true, String(level));
  });
});
