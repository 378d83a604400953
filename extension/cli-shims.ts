/**
 * `tfjs-callbacks` on the PATH of VS Code's terminals: the .vsix carries the CLI
 * (dist/runtime/cli/main.js), but no npm package puts it on a PATH, while the Output shows
 * `$ tfjs-callbacks run …`. The extension writes a small launcher for it into its storage and
 * prepends that folder to the terminals' PATH (extension.ts, environmentVariableCollection), as
 * other extensions put their tools there. No vscode import: the tests run it as it is.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Writes `tfjs-callbacks` (sh) and `tfjs-callbacks.cmd` into `dir`, each running `node <cli>`; returns `dir`. */
export function writeCliShims(dir: string, cli: string): string {
  mkdirSync(dir, { recursive: true });
  const sh = path.join(dir, 'tfjs-callbacks');
  writeFileSync(sh, `#!/bin/sh\n# tfjs-callbacks, as the TF.js Callback Debugger extension ships it\nexec node ${shQuote(cli)} "$@"\n`);
  chmodSync(sh, 0o755);
  writeFileSync(path.join(dir, 'tfjs-callbacks.cmd'), `@echo off\r\nnode "${cli}" %*\r\n`);
  return dir;
}

function shQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
