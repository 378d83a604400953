/**
 * The adapter's pure logic for frames and variables: which files are library code (deemphasized,
 * stepped through), which are the adapter's own (hidden), and how variables requests page.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { isAgentFile, isLibrary } from '../../debug-adapter/sources/library-files.js';
import { adapterPaths } from '../../debug-adapter/paths.js';
import { indexName, MAX_PAGE, PAGE, pageRange } from '../../debug-adapter/values/variable-refs.js';

describe('frame filtering', () => {
  const runtime = ['/opt/ext/dist/runtime', '/opt/ext/runtime'];
  test('the runtime, built or source, and anything under node_modules are library code', () => {
    assert.equal(isLibrary('/opt/ext/dist/runtime/invocation/invoke.js', runtime), true);
    assert.equal(isLibrary('/opt/ext/runtime/invocation/invoke.ts', runtime), true);
    assert.equal(isLibrary('/home/me/proj/node_modules/@tensorflow/tfjs-core/dist/ops/add.js', runtime), true);
  });
  test("the user's files are not, a look-alike folder included", () => {
    assert.equal(isLibrary('/home/me/proj/main.ts', runtime), false);
    assert.equal(isLibrary('/opt/ext/runtime-extras/x.ts', runtime), false, 'a prefix of a folder name is not the folder');
    assert.equal(isLibrary('/home/me/node_modules_backup/x.ts', runtime), false);
    assert.equal(isLibrary(undefined, runtime), false);
    // TF.js's own sources, source-mapped outside node_modules (tsx): the runtime's rule, callsite.ts.
    assert.equal(isLibrary('/home/me/proj/tfjs-core/src/ops/add.ts', runtime), true);
    assert.equal(isLibrary('/home/me/proj/tfjs-layers/src/engine/training.ts', runtime), true);
  });
  test("the adapter's debuggee files (bridge, agent, the shared leaves) are its own, and only those", () => {
    assert.deepEqual(
      adapterPaths.debuggeeDirs.map((dir) => path.basename(dir)),
      ['debuggee', 'shared'],
    );
    const dirs = ['debuggee', 'shared'].map((dir) => path.join('/opt/ext/dist/debug-adapter', dir));
    assert.equal(isAgentFile('/opt/ext/dist/debug-adapter/debuggee/bridge.js', dirs), true);
    assert.equal(isAgentFile('/opt/ext/dist/debug-adapter/debuggee/agent/known.js', dirs), true);
    assert.equal(isAgentFile('/opt/ext/dist/debug-adapter/shared/hit-condition.js', dirs), true);
    assert.equal(isAgentFile('/opt/ext/dist/debug-adapter/breakpoints/function.js', dirs), false, "breakpoints/ is the adapter's side");
    assert.equal(isAgentFile('/opt/ext/dist/debug-adapter/session.js', dirs), false);
  });
});

describe('variable paging', () => {
  test('no count, or 0, is one default page; a huge count is capped', () => {
    assert.deepEqual(pageRange(undefined, undefined), [0, PAGE]);
    assert.deepEqual(pageRange(200, 0), [200, PAGE]);
    assert.deepEqual(pageRange(5, 10), [5, 10]);
    assert.deepEqual(pageRange(0, 10_000_000), [0, MAX_PAGE]);
  });
  test('flat indexes are named row-major for N-D values', () => {
    assert.equal(indexName(7), '[7]');
    assert.equal(indexName(7, [10]), '[7]');
    assert.equal(indexName(5, [2, 3]), '[1, 2]');
    assert.equal(indexName(23, [2, 3, 4]), '[1, 2, 3]');
  });
});
