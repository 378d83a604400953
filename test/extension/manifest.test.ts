/**
 * VS Code's conventions in the manifest: activation only on what needs the extension (its debug
 * type, TS/JS files, a workspace with a model.json; no onCommand/onTerminalProfile/onView events,
 * which VS Code derives from the contributions since 1.74, and no onLanguage:json, which started
 * the language server for every JSON file), the extension host it runs in, what it does in
 * virtual and untrusted workspaces and why, and a CHANGELOG for the version.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { repoRoot } from '../fixtures/spawn.js';

interface Manifest {
  version: string;
  engines: { vscode: string };
  activationEvents: string[];
  extensionKind?: string[];
  capabilities: {
    virtualWorkspaces?: { supported: boolean | string; description?: string };
    untrustedWorkspaces?: { supported: boolean | string; description?: string; restrictedConfigurations?: string[] };
  };
  contributes: { configuration: { properties: Record<string, unknown> } };
}
const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as Manifest;

describe('the manifest follows VS Code conventions', () => {
  test('activation: the debug type, TS/JS files, a workspace with a model.json or a package.json (a TF.js project starts the language server with the window), the inspector panel revived; nothing VS Code derives', () => {
    assert.match(manifest.engines.vscode, /^\^1\.(7[4-9]|[89]\d|\d{3,})\./, 'VS Code 1.74+ derives onCommand and the like');
    assert.deepEqual(manifest.activationEvents, [
      'onDebugResolve:tfjs-callbacks',
      'onDebugDynamicConfigurations:tfjs-callbacks',
      'onLanguage:typescript',
      'onLanguage:javascript',
      'workspaceContains:**/*model.json',
      'workspaceContains:package.json',
      'workspaceContains:*/package.json',
      'onWebviewPanel:tfjsCallbacks.inspector',
    ]);
    for (const derived of ['onCommand:', 'onView:', 'onTerminalProfile:', 'onWalkthrough:']) {
      assert.ok(!manifest.activationEvents.some((e) => e.startsWith(derived)), `no ${derived} event: VS Code derives it`);
    }
    assert.ok(!manifest.activationEvents.includes('onLanguage:json'), 'not every JSON file');
    assert.ok(!manifest.activationEvents.includes('*'));
  });

  test('it runs in the workspace extension host, where the programs and their files are', () => {
    assert.deepEqual(manifest.extensionKind, ['workspace']);
  });

  test('virtual workspaces are declared unsupported, and untrusted ones limited, each with its reason', () => {
    const { virtualWorkspaces, untrustedWorkspaces } = manifest.capabilities;
    assert.equal(virtualWorkspaces?.supported, false);
    assert.match(virtualWorkspaces?.description ?? '', /Node/);
    assert.equal(untrustedWorkspaces?.supported, 'limited');
    assert.match(untrustedWorkspaces?.description ?? '', /executes its code/);
    for (const what of ['Run Graph', 'Debug Graph', 'F5', 'Debug Terminal', 'Set Up Native Backend']) {
      assert.ok(untrustedWorkspaces?.description?.includes(what), `the description names ${what}`);
    }
    for (const setting of untrustedWorkspaces?.restrictedConfigurations ?? []) {
      assert.ok(setting in manifest.contributes.configuration.properties, `${setting} is a contributed setting`);
    }
    assert.deepEqual(untrustedWorkspaces?.restrictedConfigurations, ['tfjsCallbacks.callbacksModule']);
  });

  test("CHANGELOG.md has the manifest's version", () => {
    const changelog = readFileSync(path.join(repoRoot, 'CHANGELOG.md'), 'utf8');
    assert.match(changelog, new RegExp(`^## ${manifest.version.replace(/\./g, '\\.')}$`, 'm'));
  });
});
