/**
 * The README's settings table is package.json's contributes.configuration, rendered by
 * scripts/lib/readme-settings.ts: a setting added, removed or described anew in package.json
 * without `npx tsx scripts/readme-settings.ts` fails here.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { repoRoot } from '../fixtures/spawn.js';
import { type Manifest, renderSettings, SETTINGS_END, SETTINGS_START, withSettings } from '../../scripts/lib/readme-settings.js';

const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as Manifest;

describe("the README's settings table", () => {
  test('is what package.json renders (run npx tsx scripts/readme-settings.ts when it is not)', () => {
    const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    const start = readme.indexOf(SETTINGS_START);
    assert.ok(start >= 0, `README.md has the settings block's start marker: ${SETTINGS_START}`);
    const block = readme.slice(start, readme.indexOf(SETTINGS_END, start) + SETTINGS_END.length);
    assert.equal(block, renderSettings(manifest), 'README.md is stale: run npx tsx scripts/readme-settings.ts');
  });

  test('has a row per setting with its values, default and description, and says which Restricted Mode limits', () => {
    const properties = Object.keys(manifest.contributes?.configuration?.properties ?? {});
    const rows = renderSettings(manifest)
      .split('\n')
      .filter((l) => l.startsWith('| `'));
    assert.deepEqual(
      rows.map((r) => /^\| `([^`]+)`/.exec(r)?.[1]),
      properties,
    );
    const backend = rows.find((r) => r.startsWith('| `tfjsCallbacks.backend`'))!;
    assert.match(backend, /\| `auto` · `tensorflow` · `wasm` · `cpu` \| `auto` \| Backend for Run Graph and Debug Graph/);
    assert.match(rows.find((r) => r.startsWith('| `tfjsCallbacks.inspectorLocation`'))!, /`panel`: A view in the panel/);
    assert.match(
      rows.find((r) => r.startsWith('| `tfjsCallbacks.callbacksModule`'))!,
      /\| string \| `""` \| .*In Restricted Mode, read from user settings only\. \|$/,
    );
  });

  test('a README without the markers is refused with where they go', () => {
    assert.throws(() => withSettings('# no markers\n', renderSettings(manifest)), /has no settings block/);
    assert.equal(withSettings(`a\n${SETTINGS_START}\nold\n${SETTINGS_END}\nb\n`, 'NEW'), 'a\nNEW\nb\n');
  });
});
