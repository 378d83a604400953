// Builds what runs outside tsc's output: the extension and language server (CommonJS bundles for
// VS Code and Node) and the webviews' scripts (browser bundles: the tensor inspector, the graph
// view). Runs after tsc: the debug adapter's entry is replaced by a bundle of itself, since a
// session starts by booting it (one file loads in about half the time of its ~60 modules); the
// debuggee-side files it launches (bridge, agent, runtime) stay tsc's separate modules. The agent
// is also bundled into one script, the one the adapter injects into a program it attaches to.
import { build } from 'esbuild';

// jsonc-parser's main entry is a UMD build whose dynamic requires esbuild cannot follow: bundle
// its ES module build instead.
const alias = { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' };
/** Where the adapter finds the injected agent (debug-adapter/paths.ts `agentBundle`). */
const AGENT_BUNDLE = 'dist/debug-adapter/debuggee/agent.bundle.js';
const common = { bundle: true, sourcemap: true, logLevel: 'warning', legalComments: 'none', alias };
await Promise.all([
  build({
    ...common,
    entryPoints: ['extension/extension.ts'],
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: 'out/extension.cjs',
    external: ['vscode'],
  }),
  build({ ...common, entryPoints: ['extension/server/server.ts'], platform: 'node', format: 'cjs', target: 'node20', outfile: 'out/server.cjs' }),
  build({
    ...common,
    entryPoints: ['debug-adapter/main.ts'],
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: 'dist/debug-adapter/main.js',
    allowOverwrite: true,
    // ws's optional native helpers; it falls back to JS without them.
    external: ['bufferutil', 'utf-8-validate'],
    // Bundled CommonJS dependencies call require(): give the ES module one.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  }),
  // The agent for Runtime.evaluate (connect.ts): a script, not a module, that loads nothing (it
  // runs in the program's global scope, where there may be no `require`). Its //# sourceURL is
  // added as it is injected (AGENT_SOURCE_URL), and it has no source map: the adapter hides it.
  build({
    ...common,
    sourcemap: false,
    entryPoints: ['debug-adapter/debuggee/agent/injected.ts'],
    platform: 'neutral',
    format: 'iife',
    target: 'es2022',
    outfile: AGENT_BUNDLE,
  }),
  build({ ...common, entryPoints: ['media/src/inspector.ts'], platform: 'browser', format: 'iife', target: 'es2022', outfile: 'media/dist/inspector.js' }),
  build({ ...common, entryPoints: ['media/src/graph/main.ts'], platform: 'browser', format: 'iife', target: 'es2022', outfile: 'media/dist/graph.js' }),
]);

// The injected agent must not load modules: what bundling left as an import would fail in the program.
const agentScript = readFileSync(AGENT_BUNDLE, 'utf8');
const loads = /\brequire\s*\(|\bimport\s*\(|^\s*(import|export)\b/m.exec(agentScript);
if (loads) throw new Error(`${AGENT_BUNDLE} loads a module (${JSON.stringify(loads[0])}): the injected agent must be self-contained`);

// The language server checks callback return types against TypeScript's standard library
// (Float64Array, …): its lib*.d.ts travel next to the bundle, where the bundled compiler looks.
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
const libDir = path.join('node_modules', 'typescript', 'lib');
for (const file of readdirSync(libDir)) if (/^lib\..*\.d\.ts$/.test(file) || file === 'lib.d.ts') copyFileSync(path.join(libDir, file), path.join('out', file));
