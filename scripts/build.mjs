// Builds what runs outside tsc's output: the extension and language server (CommonJS bundles for
// VS Code and Node) and the tensor inspector's webview script (a browser bundle).
import { build } from 'esbuild';

const common = { bundle: true, sourcemap: true, logLevel: 'warning', legalComments: 'none' };
await Promise.all([
  build({ ...common, entryPoints: ['extension/extension.ts'], platform: 'node', format: 'cjs', target: 'node20', outfile: 'out/extension.cjs', external: ['vscode'] }),
  build({ ...common, entryPoints: ['extension/server/server.ts'], platform: 'node', format: 'cjs', target: 'node20', outfile: 'out/server.cjs' }),
  build({ ...common, entryPoints: ['media/src/inspector.ts'], platform: 'browser', format: 'iife', target: 'es2022', outfile: 'media/dist/inspector.js' }),
]);
