/**
 * The .vsix carries exactly what it needs. .vscodeignore is an allow-list (everything left out,
 * then what the extension loads taken back), checked here against `vsce ls`: nothing outside it,
 * none of what must never ship (tfjs-node and its installers, sources, tests, source maps, another
 * platform's esbuild), each rule still matching a file, and every module a shipped file loads
 * shipped too. The count and size of what `vsce ls` lists are written to the test's output.
 */
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { repoRoot } from '../fixtures/spawn.js';
import { listPackageFiles } from '../../scripts/lib/package-targets.js';
import { hostTarget } from '../../scripts/lib/vsce-args.js';
import { loadsOf, readAllowList, resolveLoad, type Load } from '../helpers/package-files.js';

/** What must never ship, whatever lands in the working tree: a name for each, and how to tell. */
const NEVER: readonly { what: string; test: (file: string) => boolean }[] = [
  { what: 'tfjs-node (the native backend is built or installed per machine)', test: (f) => /(^|\/)@tensorflow\/tfjs-node(-gpu)?\//.test(f) },
  {
    what: "tfjs-node's installers and download helpers",
    test: (f) => /^node_modules\/(@mapbox\/node-pre-gyp|node-pre-gyp|node-gyp|prebuild-install|adm-zip|tar|https-proxy-agent|progress|rimraf)\//.test(f),
  },
  { what: 'a native Node addon', test: (f) => f.endsWith('.node') },
  {
    what: 'a TypeScript source (declarations ship only for the runtime and the server)',
    test: (f) => /\.[mc]?ts$/.test(f) && !/^dist\/runtime\/.*\.d\.c?ts$/.test(f) && !/^out\/lib(\..+)?\.d\.ts$/.test(f),
  },
  {
    what: "the repository's sources, tests, benchmarks, examples and tools",
    // Markdown pages the README links to are documents, not sources.
    test: (f) => /^(runtime|extension|debug-adapter|media\/src|test|bench|examples|scripts|ts-plugin)\//.test(f) && !f.endsWith('.md'),
  },
  { what: "a dependency's tests", test: (f) => /\/(test|tests|__tests__|coverage|\.nyc_output)\//.test(f) },
  { what: 'a source map', test: (f) => f.endsWith('.map') },
  { what: "esbuild's CLI binary and installer (its API runs @esbuild/<platform>'s)", test: (f) => /^node_modules\/esbuild\/(bin|install\.js)/.test(f) },
  {
    what: 'TypeScript, core-js, yargs (bundled into the server, browser polyfills, TF.js CLI tools)',
    test: (f) => /^node_modules\/(typescript|core-js|yargs)\//.test(f),
  },
  {
    what: "TF.js beyond its Node bundles and wasm binaries (browser bundles, sources, the wasm build's copies)",
    test: (f) => /^node_modules\/@tensorflow\/[^/]+\/(?!package\.json$|dist\/[^/]+\.node\.js$|dist\/[^/]+\.wasm$)/.test(f),
  },
];

/** Modules shipped code names that are not in the package, each for its reason. */
const NOT_SHIPPED: Readonly<Record<string, string>> = {
  vscode: "VS Code's extension host provides it",
  '@tensorflow/tfjs-node': "the project's own, or the one Set Up Native Backend builds",
  '@tensorflow/tfjs-node-gpu': "the project's own",
  'tfjs-callback-debugger/runtime': "the runtime's own name, in its comments",
  encoding: "node-fetch's optional converter (try/catch)",
  pnpapi: "esbuild under Yarn Plug'n'Play only",
  bufferutil: "ws's optional native helper",
  'utf-8-validate': "ws's optional native helper",
  'source-map-support': "TypeScript's optional helper (bundled into the server)",
  xor4096: "seedrandom's AMD branch, never taken under Node",
  'typescript/package.json': "the user's project's TypeScript, read by the ts-node check (runtime/ts-node-check.cts)",
};

let files: string[];
before(() => {
  files = listPackageFiles(repoRoot);
});

describe('the package allow-list (.vscodeignore) against vsce ls', () => {
  const allowList = readAllowList();

  test('.vscodeignore leaves every file out first, then only takes files back', () => {
    assert.equal(allowList.rules[0], '**', 'the first rule is ** (everything left out)');
    const denies = allowList.rules.slice(1).filter((r) => !r.startsWith('!'));
    assert.deepEqual(denies, [], 'after **, every rule takes files back (a `!` rule): a deny rule would mean a deny-list again');
    const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { files?: unknown };
    assert.equal(manifest.files, undefined, 'package.json has no "files" (vsce refuses both; the allow-list is .vscodeignore)');
  });

  test('vsce ls lists only what the allow-list takes back, and nothing that must never ship', (t) => {
    const outside = files.filter((f) => !allowList.allows(f));
    assert.deepEqual(outside, [], 'files vsce lists that no rule takes back');
    const never = files.flatMap((f) => NEVER.filter((n) => n.test(f)).map((n) => `${f}: ${n.what}`));
    assert.deepEqual(never, []);
    const host = hostTarget();
    const esbuilds = files.filter((f) => f.startsWith('node_modules/@esbuild/')).map((f) => f.split('/')[2]);
    assert.deepEqual([...new Set(esbuilds)], host ? [host] : [], "one esbuild binary package: this machine's");
    const bytes = files.reduce((sum, f) => sum + statSync(path.join(repoRoot, f)).size, 0);
    t.diagnostic(`vsce ls: ${files.length} files, ${(bytes / 1e6).toFixed(2)} MB before compression`);
  });

  test('what must never ship is left out wherever it lands in the tree', () => {
    const landed = [
      'node_modules/@tensorflow/tfjs-node/package.json',
      'node_modules/@tensorflow/tfjs-node/lib/napi-v8/tfjs_binding.node',
      'node_modules/@tensorflow/tfjs-node/deps/lib/libtensorflow.so.2',
      'node_modules/@tensorflow/tfjs-node/scripts/install.js',
      'node_modules/@mapbox/node-pre-gyp/lib/install.js',
      'node_modules/node-gyp/bin/node-gyp.js',
      'node_modules/tar/index.js',
      'node_modules/adm-zip/adm-zip.js',
      'runtime/index.ts',
      'extension/extension.ts',
      'media/src/inspector.ts',
      'test/extension/package.test.ts',
      'bench/run.ts',
      'examples/main.ts',
      'scripts/build.mjs',
      'out/extension.cjs.map',
      'dist/runtime/index.js.map',
      'media/dist/inspector.js.map',
      'node_modules/@tensorflow/tfjs-core/dist/tf-core.node.js.map',
      'node_modules/@tensorflow/tfjs-core/src/index.ts',
      'node_modules/@tensorflow/tfjs/dist/tf.min.js',
      'node_modules/@tensorflow/tfjs-backend-wasm/wasm-out/tfjs-backend-wasm.wasm',
      'node_modules/esbuild/bin/esbuild',
      'node_modules/esbuild/install.js',
      'node_modules/seedrandom/.nyc_output/processinfo/index.json',
      'node_modules/typescript/lib/typescript.js',
      'dist/debug-adapter/controller.js',
      'dist/debug-adapter/debuggee/agent.d.ts',
      'tfjs-callback-debugger-linux-x64.vsix',
      '.scratch/notes.md',
    ];
    assert.deepEqual(
      landed.filter((f) => allowList.allows(f)),
      [],
      'paths the allow-list would take back',
    );
    for (const f of landed) {
      if (/\.(vsix|md)$/.test(f) || f.startsWith('dist/debug-adapter/')) continue;
      assert.ok(
        NEVER.some((n) => n.test(f)),
        `${f} is one of the kinds the vsce ls check names`,
      );
    }
  });

  test('each rule still takes back a file (no rule outlives what it was for)', () => {
    // esbuild.exe ships in the win32-x64 package only (test/extension/package-targets.test.ts).
    assert.deepEqual(allowList.unused(files), []);
  });

  test('every module a shipped file loads is shipped, or is named here with why not', () => {
    const shipped = new Set(files);
    const missing: string[] = [];
    for (const file of files.filter((f) => /\.(c|m)?js$/.test(f))) {
      for (const load of loadsOf(file, readFileSync(path.join(repoRoot, file), 'utf8'))) {
        if (load.specifier in NOT_SHIPPED || packageName(load.specifier) in NOT_SHIPPED) continue;
        const resolved = resolveLoad(load);
        if (!resolved || !shipped.has(resolved)) missing.push(explain(load, resolved));
      }
    }
    assert.deepEqual(missing, []);
  });

  test('the agent an attach injects ships as one script that loads no module', () => {
    const bundle = 'dist/debug-adapter/debuggee/agent.bundle.js';
    assert.ok(files.includes(bundle), `${bundle} is in the package: the adapter reads it to attach`);
    // Not even Node's built-in modules: it runs through Runtime.evaluate, where there may be no `require`.
    assert.doesNotMatch(readFileSync(path.join(repoRoot, bundle), 'utf8'), /\brequire\s*\(|\bimport\s*\(|^\s*(import|export)\b/m);
  });
});

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : specifier.startsWith('.') ? specifier : parts[0]!;
}

function explain(load: Load, resolved: string | undefined): string {
  return `${load.file} loads '${load.specifier}': ${resolved ? `${resolved} is not in the package` : 'resolves to nothing'}`;
}
