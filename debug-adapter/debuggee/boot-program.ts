/**
 * The Debug Terminal's bootloader: `NODE_OPTIONS=--import <this>` in the terminal, so it runs first
 * in every Node process started there. A process that runs a user's program asks the extension
 * (the socket TERMINAL_SOCKET_ENV names) for a `tfjs-callbacks` session, gets the adapter's bridge
 * socket back, and then imports what a launch preloads (launcher.ts `bridgePreloads`): the bridge,
 * tsx, the runtime's loader, and the bridge's `?hold`, so the program waits until the adapter has
 * set its breakpoints. Every other process (npm, npx, yarn, pnpm, tsx's CLI, anything under
 * node_modules, `node -e`, the REPL) only pays for this module's load and a few checks.
 *
 * Nothing here may break a command: when the extension does not answer, the process says so once
 * on stderr and runs undebugged, with tsx and the runtime's loader still (its children, which lose
 * the variable, stay quiet).
 */
import { realpathSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { SOCKET_ENV } from './bridge-protocol.js';
import { EXIT_CODE_FILE, TERMINAL_REQUEST_TIMEOUT_MS, TERMINAL_SOCKET_ENV, type TerminalDebugReply, type TerminalDebugRequest } from './terminal-protocol.js';

/** The runtime's CLI as a project installs it: it runs the program in its own process, so it is debugged. */
const RUNTIME_CLI = path.join(path.sep, 'node_modules', 'tfjs-callback-debugger', 'dist', 'runtime', 'cli', 'main.js');

/** Options that make node run no script file of its own: the script path is then not argv[1]. */
const NO_SCRIPT_FLAGS = new Set([
  '-e',
  '--eval',
  '-p',
  '--print',
  '-i',
  '--interactive',
  '-c',
  '--check',
  '--test',
  '--run',
  '-v',
  '--version',
  '-h',
  '--help',
]);

/**
 * The program this process runs, when it is a user's program worth a session; else undefined.
 * Exported for the tests of the rule.
 */
export function programToDebug(argv: readonly string[], execArgv: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  if (!env[TERMINAL_SOCKET_ENV] || env[SOCKET_ENV]) return undefined; // no terminal, or a launch's debuggee already
  const script = argv[1];
  if (!script || execArgv.some((a) => NO_SCRIPT_FLAGS.has(a.split('=')[0]!))) return undefined;
  let real: string;
  try {
    if (!statSync(script).isFile()) return undefined;
    real = realpathSync(script); // `/usr/bin/npm` is a link to …/node_modules/npm/bin/npm-cli.js
  } catch {
    return undefined;
  }
  return isToolScript(real) ? undefined : script;
}

/**
 * Package managers and tools, not programs: anything installed in a node_modules folder (npm, npx,
 * node-gyp, tsx's CLI, which starts the program in a child that is debugged), corepack's and
 * yarn's own copies; except this package's runtime CLI (`tfjs-callbacks run program.ts`).
 */
export function isToolScript(real: string): boolean {
  if (real.endsWith(RUNTIME_CLI)) return false;
  const parts = real.split(path.sep);
  return parts.includes('node_modules') || parts.includes('corepack') || real.includes(`${path.sep}.yarn${path.sep}releases${path.sep}`);
}

/** One request, one reply, over the extension's socket. */
function ask(socketPath: string, request: TerminalDebugRequest): Promise<TerminalDebugReply> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    let text = '';
    const done = (reply: TerminalDebugReply) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(reply);
    };
    const timer = setTimeout(
      () => done({ ok: false, reason: `VS Code did not start a debug session within ${TERMINAL_REQUEST_TIMEOUT_MS / 1000} s` }),
      TERMINAL_REQUEST_TIMEOUT_MS,
    );
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on('data', (chunk: string) => {
      text += chunk;
      const nl = text.indexOf('\n');
      if (nl < 0) return;
      try {
        done(JSON.parse(text.slice(0, nl)) as TerminalDebugReply);
      } catch {
        done({ ok: false, reason: 'the extension sent an unreadable answer' });
      }
    });
    socket.on('error', (err: NodeJS.ErrnoException) =>
      done({ ok: false, reason: `the TF.js Callbacks extension does not answer (${err.code ?? err.message}: was VS Code closed?)` }),
    );
    socket.on('close', () => done({ ok: false, reason: 'the extension closed the connection without an answer' }));
  });
}

/** Whether tsx is already loaded by the command line (`--import tsx`, tsx's CLI child's loader). */
function tsxLoaded(execArgv: readonly string[]): boolean {
  return execArgv.some((a) => /(^|[/\\=])tsx([/\\]|$)/.test(a));
}

async function boot(): Promise<void> {
  const socketPath = process.env[TERMINAL_SOCKET_ENV];
  const program = isMainThread ? programToDebug(process.argv, process.execArgv, process.env) : undefined;
  if (!socketPath || !program) return;
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const reply: TerminalDebugReply =
    major > 20 || (major === 20 && minor >= 19)
      ? await ask(socketPath, { version: 1, pid: process.pid, program, args: process.argv.slice(2), cwd: process.cwd() })
      : { ok: false, reason: `the debugger needs Node.js 20.19 or newer, and this is ${process.version}` };
  // The program's packages are looked up beside it, as a launch does (launcher.ts).
  process.env.TFJS_CALLBACKS_PROJECT_DIR ??= path.dirname(program);
  if (!reply.ok) {
    process.stderr.write(`tfjs-callbacks debug terminal: ${reply.reason}. ${path.basename(program)} runs without the debugger.\n`);
    // Its children would fail the same way: they run undebugged without a word.
    delete process.env[TERMINAL_SOCKET_ENV];
    // As it would run debugged, less the bridge: a .ts program still runs (tsx), the runtime still resolves.
    await preload(false);
    return;
  }
  const exitCodeFile = path.join(path.dirname(reply.bridgeSocket), EXIT_CODE_FILE);
  process.once('exit', (code) => {
    try {
      writeFileSync(exitCodeFile, String(code));
    } catch {
      // The session is gone already.
    }
  });
  process.env[SOCKET_ENV] = reply.bridgeSocket;
  await preload(true);
}

/** Imports what a launch preloads (launcher.ts `bridgePreloads`), the bridge's parts only `withBridge`. */
async function preload(withBridge: boolean): Promise<void> {
  const { bridgePreloads } = await import('./launcher.js');
  const { adapterPaths, fileUrl } = await import('../paths.js');
  const bridge = fileUrl(adapterPaths.bridge);
  const skipTsx = tsxLoaded(process.execArgv);
  for (const entry of bridgePreloads()) {
    if (skipTsx && entry === adapterPaths.tsx) continue;
    if (!withBridge && entry.startsWith(bridge)) continue;
    await import(entry);
  }
}

await boot();
