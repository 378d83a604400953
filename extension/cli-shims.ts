/**
 * `tfjs-callbacks` on the PATH of VS Code's terminals: the .vsix carries the CLI
 * (dist/runtime/cli/main.js), but no npm package puts it on a PATH, while the Output shows
 * `$ tfjs-callbacks run …`. The extension writes a small launcher for it into its storage and
 * prepends that folder to the terminals' PATH (extension.ts, environmentVariableCollection), as
 * other extensions put their tools there. No vscode import: the tests run it as it is.
 *
 * Which Node runs it: the `node` on the terminal's PATH when it is recent enough (a program then runs
 * as `node program.js` would in that terminal), else the runtime VS Code's extension host runs on,
 * as node (ELECTRON_RUN_AS_NODE=1: VS Code needs no node on the PATH), else a plain message of what
 * is needed. A node too old is never used: the CLI would fail on syntax with a stack, not a reason.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** package.json's `engines.node` (>=20.19), as major and minor; a test keeps the two the same. */
export const MIN_NODE = { major: 20, minor: 19 } as const;
const NEEDS = `Node.js ${MIN_NODE.major}.${MIN_NODE.minor} or later`;

/** The runtime the extension host runs on: a Node, or VS Code's Electron binary run as one. */
export interface HostRuntime {
  readonly path: string;
  /** Its Node version (process.versions.node), without the `v`. */
  readonly version: string;
}

const hostRuntime: HostRuntime = { path: process.execPath, version: process.versions.node };

/** Whether Node `version` (20.19.1 or v20.19.1) is one the CLI runs on. */
export function isRecentNode(version: string): boolean {
  const m = /^v?(\d+)\.(\d+)\./.exec(version);
  if (!m) return false;
  const major = Number(m[1]);
  return major > MIN_NODE.major || (major === MIN_NODE.major && Number(m[2]) >= MIN_NODE.minor);
}

/**
 * Writes `tfjs-callbacks` (sh) and `tfjs-callbacks.cmd` into `dir`, each running `<node> <cli>` with
 * the node chosen as the header says; `host` is the extension host's runtime. Returns `dir`.
 */
export function writeCliShims(dir: string, cli: string, host: HostRuntime = hostRuntime): string {
  mkdirSync(dir, { recursive: true });
  const sh = path.join(dir, 'tfjs-callbacks');
  writeFileSync(sh, shLauncher(cli, host));
  chmodSync(sh, 0o755);
  writeFileSync(path.join(dir, 'tfjs-callbacks.cmd'), cmdLauncher(cli, host));
  return dir;
}

function shLauncher(cli: string, host: HostRuntime): string {
  const fallback = isRecentNode(host.version)
    ? [
        `[ -n "$found" ] && echo "tfjs-callbacks: the node on the PATH ($(command -v node)) is $found; it needs ${NEEDS}: running with VS Code's own runtime (Node ${host.version}) instead." >&2`,
        `ELECTRON_RUN_AS_NODE=1 exec ${shQuote(host.path)} "$cli" "$@"`,
      ]
    : [
        `if [ -n "$found" ]; then on_path="the node on the PATH ($(command -v node)) is $found"; else on_path="there is no node on the PATH"; fi`,
        `echo "tfjs-callbacks needs ${NEEDS}: $on_path, and VS Code's own runtime is Node ${host.version}. Install Node.js ${MIN_NODE.major}.${MIN_NODE.minor}+ (https://nodejs.org) and open a new terminal." >&2`,
        'exit 1',
      ];
  return [
    '#!/bin/sh',
    `# tfjs-callbacks, as the TF.js Callback Debugger extension ships it. It needs ${NEEDS}:`,
    "# the node on the PATH when it is one, else VS Code's own runtime run as node.",
    `cli=${shQuote(cli)}`,
    'recent() {',
    '  v=${1#v}; major=${v%%.*}; rest=${v#*.}; minor=${rest%%.*}',
    `  case "$major.$minor" in *[!0-9.]* | .* | *.) return 1 ;; esac`,
    `  [ "$major" -gt ${MIN_NODE.major} ] || { [ "$major" -eq ${MIN_NODE.major} ] && [ "$minor" -ge ${MIN_NODE.minor} ]; }`,
    '}',
    // A `node` that prints no version (not a Node, or none) counts as none.
    'found=$(node --version 2>/dev/null) || found=',
    'case "$found" in v[0-9]*) ;; *) found= ;; esac',
    'if [ -n "$found" ] && recent "$found"; then exec node "$cli" "$@"; fi',
    ...fallback,
    '',
  ].join('\n');
}

/** The same choice for cmd.exe; setlocal keeps ELECTRON_RUN_AS_NODE out of the terminal's own environment. */
function cmdLauncher(cli: string, host: HostRuntime): string {
  const quotedCli = `"${cmdEscape(cli)}"`;
  const fallback = isRecentNode(host.version)
    ? ['set ELECTRON_RUN_AS_NODE=1', `"${cmdEscape(host.path)}" ${quotedCli} %*`, 'exit /b']
    : [
        `echo tfjs-callbacks needs ${NEEDS}: the node on the PATH is older or missing, and VS Code's own runtime is Node ${host.version}. Install Node.js ${MIN_NODE.major}.${MIN_NODE.minor}+ (https://nodejs.org) and open a new terminal. 1>&2`,
        'exit /b 1',
      ];
  return [
    '@echo off',
    'setlocal',
    'set "tfjs_node="',
    `for /f "tokens=1,2 delims=v." %%a in ('node --version 2^>nul') do (`,
    `  if %%a GTR ${MIN_NODE.major} set "tfjs_node=node"`,
    `  if %%a EQU ${MIN_NODE.major} if %%b GEQ ${MIN_NODE.minor} set "tfjs_node=node"`,
    ')',
    'if not defined tfjs_node goto fallback',
    `node ${quotedCli} %*`,
    'exit /b',
    ':fallback',
    ...fallback,
    '',
  ].join('\r\n');
}

function shQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A path inside a .cmd's double quotes: `%` would be read as a variable. */
function cmdEscape(text: string): string {
  return text.replace(/%/g, '%%');
}
