/**
 * docs/launch-json.md's attribute table is package.json's launch and attach schema, rendered by
 * scripts/lib/launch-json-doc.ts, and that schema names the attributes the debug adapter reads
 * (debug-adapter/launch-config.ts's LaunchArguments and AttachArguments): an attribute added to
 * one and not the other, or a schema changed without `npx tsx scripts/launch-json-doc.ts`, fails here.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { repoRoot } from '../fixtures/spawn.js';
import {
  type DebuggerManifest,
  declaredAttributes,
  LAUNCH_END,
  LAUNCH_START,
  renderLaunchAttributes,
  schemaAttributes,
  withLaunchAttributes,
} from '../../scripts/lib/launch-json-doc.js';

const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as DebuggerManifest;
const launchConfig = readFileSync(path.join(repoRoot, 'debug-adapter', 'launch-config.ts'), 'utf8');
const sorted = (names: readonly string[]) => [...names].sort();

function docBlock(doc: string): string {
  const start = doc.indexOf(LAUNCH_START);
  assert.ok(start >= 0, `docs/launch-json.md has the attribute block's start marker: ${LAUNCH_START}`);
  return doc.slice(start, doc.indexOf(LAUNCH_END, start) + LAUNCH_END.length);
}

describe("docs/launch-json.md's attribute table", () => {
  test('is what package.json renders (run npx tsx scripts/launch-json-doc.ts when it is not)', () => {
    const doc = readFileSync(path.join(repoRoot, 'docs', 'launch-json.md'), 'utf8');
    assert.equal(docBlock(doc), renderLaunchAttributes(manifest), 'docs/launch-json.md is stale: run npx tsx scripts/launch-json-doc.ts');
  });

  test("package.json's schema has the attributes launch-config.ts declares, for launch and for attach", () => {
    const schema = schemaAttributes(manifest);
    const declared = declaredAttributes(launchConfig);
    assert.ok(declared.launch.includes('program') && declared.attach.includes('port'), JSON.stringify(declared));
    assert.deepEqual(sorted(schema.launch), sorted(declared.launch), 'launch: package.json against LaunchArguments');
    assert.deepEqual(sorted(schema.attach), sorted(declared.attach), 'attach: package.json against AttachArguments');
  });

  test('a row per attribute, with the requests that take it, its type, default and description', () => {
    const rows = renderLaunchAttributes(manifest)
      .split('\n')
      .filter((l) => l.startsWith('| `'));
    const schema = schemaAttributes(manifest);
    assert.deepEqual(
      rows.map((r) => /^\| `([^`]+)`/.exec(r)?.[1]),
      [...schema.launch, ...schema.attach.filter((n) => !schema.launch.includes(n))],
    );
    const row = (name: string) => rows.find((r) => r.startsWith(`| \`${name}\` `))!;
    assert.match(row('backend'), /\| launch \| `auto` · `tensorflow` · `wasm` · `cpu` \| {2}\| TensorFlow\.js backend/);
    assert.match(row('breakOnCallbacks'), /\| launch, attach \| string\[\] or `\*` \| `\[\]` \|/);
    assert.match(row('port'), /\| attach \(required\) \| number \| `9229` \|/);
    assert.match(row('env'), /\| object of string or null \| `\{\}` \|/);
  });

  test('a changed schema or a new field in launch-config.ts is seen', () => {
    // The stale check: a new attribute in package.json renders a block the doc does not have.
    const changed = structuredClone(manifest) as {
      contributes: { debuggers: { configurationAttributes: { launch: { properties: Record<string, object> } } }[] };
    };
    changed.contributes.debuggers[0]!.configurationAttributes.launch.properties.console = { type: 'string', description: 'Where output goes.' };
    const block = renderLaunchAttributes(changed as DebuggerManifest);
    assert.notEqual(block, renderLaunchAttributes(manifest));
    assert.match(block, /\| `console` \| launch \| string \| {2}\| Where output goes\. \|/);
    // The parity check: a field only launch-config.ts has is listed for its interface alone.
    const source = launchConfig.replace('export interface AttachArguments extends DebugProtocol.AttachRequestArguments {', '$&\n  timeout?: number;');
    assert.ok(declaredAttributes(source).attach.includes('timeout'));
    assert.ok(!declaredAttributes(source).launch.includes('timeout'));
    assert.throws(() => declaredAttributes('export interface Other {}'), /declares no interface LaunchArguments/);
  });

  test('a doc without the markers is refused with where they go', () => {
    assert.throws(() => withLaunchAttributes('# no markers\n', 'x'), /has no attribute block/);
    assert.equal(withLaunchAttributes(`a\n${LAUNCH_START}\nold\n${LAUNCH_END}\nb\n`, 'NEW'), 'a\nNEW\nb\n');
  });
});
