/**
 * The tensor inspector webview's entry (bundled into media/dist/inspector.js): starts the app in
 * the page the panel serves (extension/inspector-html.ts).
 */
import { InspectorApp } from './app.js';
import { vscodeApi } from './vscode-api.js';

function main(): void {
  const root = document.getElementById('app');
  if (!root) throw new Error('tensor inspector: #app is missing from the page');
  new InspectorApp(root, vscodeApi()).start();
}

main();
