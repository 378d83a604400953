/**
 * What the bootloader (boot.cts) does once a process is about to start a program to debug, before
 * Node starts it. A Debug Terminal's process asks the extension (the socket TERMINAL_SOCKET_ENV
 * names) for a `tfjs-callbacks` session and gets the adapter's bridge socket back; a launch's has
 * it already. Then it imports what a launch preloads (launcher.ts `bridgePreloads`): the bridge,
 * tsx (only where nothing of the user's compiles the program: `loadsTsx`), the runtime's loader,
 * which loads the runtime and chooses the backend as for a launch (`chooseBackendAsLaunch`), and
 * the bridge's `?hold`, so the program waits until the adapter has set its breakpoints.
 *
 * Nothing here may break a terminal's command: when the extension does not answer, the process
 * says so once on stderr and runs undebugged, with tsx and the runtime's loader still (its
 * children, which lose the variable, stay quiet). When the extension refuses the session (an
 * untrusted workspace), it says so and runs as `node` would run it, with nothing preloaded: no
 * runtime, no native backend, no tsx. When the session it was given is lost (stopped
 * or its adapter dead before the program connects, or the adapter gone later), the bridge does
 * the same (bridge.ts).
 */
import Module from 'node:module';
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { SOCKET_ENV, TERMINAL_PROGRAM_ENV } from './bridge-protocol.js';
import { bridgePreloads } from './launcher.js';
import {
  EXIT_CODE_FILE,
  parseTerminalReply,
  TERMINAL_REQUEST_TIMEOUT_MS,
  TERMINAL_SOCKET_ENV,
  type TerminalDebugReply,
  type TerminalDebugRequest,
} from './terminal-protocol.js';
import type { BackendChoice } from '../../runtime/backend-choice.js';
import { adapterPaths, fileUrl } from '../paths.js';
import { checkProjectTfjs } from '../../runtime/tfjs-version.js';

export interface ProgramToBoot {
  /** The program's file, absolute. */
  readonly program: string;
  /** A launch's debuggee (its bridge socket is in the environment), else a Debug Terminal's process. */
  readonly launch: boolean;
  /** Started by a runner's own runMain (babel-node, ts-node), not as the process's entry point. */
  readonly viaRunner: boolean;
  /** This package's CLI running a model in its own process (`tfjs-callbacks run model.json`): it chooses the backend itself. */
  readonly runtimeCli: boolean;
}

export async function bootProgram({ program, launch, viaRunner, runtimeCli }: ProgramToBoot): Promise<void> {
  // From the TypeScript sources the bridge itself needs tsx.
  const tsx =
    adapterPaths.fromSource ||
    loadsTsx({
      program,
      viaRunner,
      execArgv: process.execArgv,
      nodeOptions: process.env.NODE_OPTIONS,
      requireHooks: Object.keys((Module as unknown as { _extensions: Record<string, unknown> })._extensions),
    });
  if (launch) return preload({ bridge: true, tsx });
  // A project on a TF.js version the runtime does not support runs as it would without us, told why once.
  const tfjs = checkProjectTfjs(path.dirname(program));
  if (!tfjs.ok) return runsWithoutDebugger(program, tfjs.message);
  const socketPath = process.env[TERMINAL_SOCKET_ENV]!;
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const { reply, answered }: { reply: TerminalDebugReply; answered: boolean } =
    major > 20 || (major === 20 && minor >= 19)
      ? await ask(socketPath, { version: 1, pid: process.pid, program, args: process.argv.slice(2), cwd: process.cwd() })
      : { reply: { ok: false, reason: `the debugger needs Node.js 20.19 or newer, and this is ${process.version}` }, answered: false };
  // Refused by the extension (an untrusted workspace): nothing of ours runs in the program, not the
  // runtime nor the native backend it would load (TensorFlow's start-up lines in a program that never used TF.js).
  if (!reply.ok && answered) return runsWithoutDebugger(program, `${reply.reason}.`);
  // The program's packages are looked up beside it, as a launch does (launcher.ts).
  process.env.TFJS_CALLBACKS_PROJECT_DIR ??= path.dirname(program);
  // The CLI, typed in the terminal, chooses as it does anywhere: its --backend, else TFJS_BACKEND, else auto.
  if (!runtimeCli) chooseBackendAsLaunch(reply.ok ? reply.backend : undefined);
  if (!reply.ok) {
    runsWithoutDebugger(program, `${reply.reason}.`);
    // As it would run debugged, less the bridge: a .ts program still runs (tsx), the runtime still resolves.
    return preload({ bridge: false, tsx });
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
  // A session lost before or after the program starts leaves it running undebugged (bridge.ts).
  process.env[TERMINAL_PROGRAM_ENV] = path.basename(program);
  await preload({ bridge: true, tsx });
}

/** Says once why the program runs undebugged; its children, without the variable, would fail the same way: they stay quiet. */
function runsWithoutDebugger(program: string, why: string): void {
  process.stderr.write(`tfjs-callbacks debug terminal: ${why} ${path.basename(program)} runs without the debugger.\n`);
  delete process.env[TERMINAL_SOCKET_ENV];
}

/**
 * The backend as F5 chooses it (launcher.ts): the runtime's loader loads the runtime before the
 * program and selects the backend (the setup-native build included, the wasm and cpu fallbacks),
 * then says which on stdout, once. `setting`: the extension's answer (the `tfjsCallbacks.backend`
 * setting of the program's folder); a TFJS_BACKEND set in the terminal (`TFJS_BACKEND=cpu npm run
 * train`, or inherited from a debugged parent) is kept; with no extension, auto, F5's default. A
 * process the program starts selects its own the same way (it may use TF.js: its first line would
 * run before an asynchronous backend such as wasm were ready), printing the line only where it
 * differs from the one its parent printed (runtime/backend.ts `announceBackend`).
 */
function chooseBackendAsLaunch(setting: BackendChoice | undefined): void {
  if (setting && !process.env.TFJS_BACKEND) process.env.TFJS_BACKEND = setting;
  process.env.TFJS_CALLBACKS_PRELOAD_RUNTIME = '1';
}

/** The file extensions tsx runs that Node 20 does not. */
const TYPESCRIPT = new Set(['.ts', '.tsx', '.mts', '.cts']);
/** Node's options that load a module of the user's before the program (a compiler, a loader, a setup file). */
const PRELOAD_FLAGS = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader']);

/**
 * Whether the program runs through tsx here. tsx is what lets `node main.ts` run in the Debug
 * Terminal; but where the user's own compiler runs the program (babel-node, ts-node, `-r
 * @babel/register`, `--loader ts-node/esm`), tsx's hooks, registered after theirs, would compile
 * it in their place, and the program would not run as it does without the debugger. So: not when
 * tsx is loaded already, nor for a program a runner starts, nor when the command line or
 * NODE_OPTIONS preloads modules of the user's (the bootloader's own is not one); then only a
 * TypeScript file no require hook takes, with no `--import`/`--loader` of the user's, still gets it.
 * Exported for the tests of the rule.
 */
export function loadsTsx(o: {
  readonly program: string;
  readonly viaRunner: boolean;
  readonly execArgv: readonly string[];
  readonly nodeOptions: string | undefined;
  /** The extensions CommonJS require hooks serve now (`Module._extensions`' keys). */
  readonly requireHooks: readonly string[];
}): boolean {
  const options = [...o.execArgv, ...splitNodeOptions(o.nodeOptions ?? '')];
  if (o.viaRunner || tsxIn(options)) return false;
  const preloads = preloadsIn(options).filter((p) => !isBootloader(p.module));
  if (preloads.length === 0) return true;
  const ext = path.extname(o.program);
  return TYPESCRIPT.has(ext) && !o.requireHooks.includes(ext) && preloads.every((p) => p.flag === '-r' || p.flag === '--require');
}

/** Whether tsx is already loaded by the command line (`--import tsx`, tsx's CLI child's loader). */
function tsxIn(options: readonly string[]): boolean {
  return options.some((a) => /(^|[/\\=])tsx([/\\]|$)/.test(a));
}

function isBootloader(module: string): boolean {
  return /[/\\]debuggee[/\\]boot\.c[jt]s$/.test(module);
}

/** The preload options among Node's options, with their modules. */
export function preloadsIn(options: readonly string[]): { flag: string; module: string }[] {
  const out: { flag: string; module: string }[] = [];
  for (let i = 0; i < options.length; i++) {
    const option = options[i]!;
    const eq = option.indexOf('=');
    const flag = option.startsWith('--') && eq > 0 ? option.slice(0, eq) : option;
    if (!PRELOAD_FLAGS.has(flag)) continue;
    const module = flag === option ? options[++i] : option.slice(eq + 1);
    if (module !== undefined) out.push({ flag, module });
  }
  return out;
}

/** NODE_OPTIONS split as Node splits it: on spaces, double quotes group, a backslash escapes inside them. */
export function splitNodeOptions(text: string): string[] {
  const out: string[] = [];
  let current: string | undefined;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '\\' && i + 1 < text.length) current = (current ?? '') + text[++i];
    else if (c === '"') {
      quoted = !quoted;
      current ??= '';
    } else if (!quoted && /\s/.test(c)) {
      if (current !== undefined) out.push(current);
      current = undefined;
    } else current = (current ?? '') + c;
  }
  if (current !== undefined) out.push(current);
  return out;
}

/** One request, one reply, over the extension's socket; `answered`: the reply is the extension's, not a failure to reach it. */
function ask(socketPath: string, request: TerminalDebugRequest): Promise<{ reply: TerminalDebugReply; answered: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    let text = '';
    const done = (reply: TerminalDebugReply, answered = false) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ reply, answered });
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
      done(parseTerminalReply(text.slice(0, nl)), true);
    });
    socket.on('error', (err: NodeJS.ErrnoException) =>
      done({ ok: false, reason: `the TF.js Callbacks extension does not answer (${err.code ?? err.message}: was VS Code closed?)` }),
    );
    socket.on('close', () => done({ ok: false, reason: 'the extension closed the connection without an answer' }));
  });
}

/** Imports what a launch preloads (launcher.ts `bridgePreloads`): the bridge's parts only with `bridge`, tsx only with `tsx`. */
async function preload(o: { readonly bridge: boolean; readonly tsx: boolean }): Promise<void> {
  const bridge = fileUrl(adapterPaths.bridge);
  for (const entry of bridgePreloads()) {
    if (!o.tsx && entry === adapterPaths.tsx) continue;
    if (!o.bridge && entry.startsWith(bridge)) continue;
    await import(entry);
  }
}
