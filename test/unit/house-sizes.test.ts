/**
 * The house's limits (CONTRIBUTING.md, Layout): no product file over FILE_LINES_LIMIT lines and no
 * function over FUNCTION_LINES_LIMIT, read from the code by scripts/house-sizes.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FILE_LINES_LIMIT, FUNCTION_LINES_LIMIT, fileSizes, functionSizes, productFiles } from '../../scripts/house-sizes.js';
import { repoRoot } from '../fixtures/spawn.js';

test('the product has sources in each folder the sizes are read from', () => {
  const files = productFiles(repoRoot);
  for (const folder of ['runtime/', 'debug-adapter/', 'extension/', 'media/src/'])
    assert.ok(
      files.some((f) => f.startsWith(folder)),
      folder,
    );
});

test(`no product file is over ${FILE_LINES_LIMIT} lines`, () => {
  assert.deepEqual(
    fileSizes(repoRoot).filter((f) => f.lines > FILE_LINES_LIMIT),
    [],
  );
});

test(`no product function is over ${FUNCTION_LINES_LIMIT} lines`, () => {
  const all = functionSizes(repoRoot);
  // The reader finds functions at all: methods, arrows and declarations of some length.
  assert.ok(all.length > 500 && all.some((f) => f.lines > 40), `${all.length} functions read`);
  assert.deepEqual(
    all.filter((f) => f.lines > FUNCTION_LINES_LIMIT),
    [],
  );
});
