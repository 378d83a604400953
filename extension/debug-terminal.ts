/**
 * "TF.js Callbacks: Create Debug Terminal" and the terminal profile of the same name: a terminal
 * whose Node programs (`node main.ts`, `npx tsx main.ts`, `npm run train`) each get a
 * `tfjs-callbacks` debug session, as js-debug's JavaScript Debug Terminal does for its type. The
 * vscode glue around terminal-listener.ts: it starts the session a process asks for and hands
 * the process the adapter's bridge socket once the adapter listens there.
 */
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import {
  TERMINAL_BRIDGE_EVENT,
  type TerminalBridgeEventBody,
  type TerminalDebugRequest,
  type TerminalSession,
} from '../debug-adapter/debuggee/terminal-protocol.js';
import { debugTerminalUnsupported } from '../debug-adapter/platform-support.js';
import { DEBUG_TYPE, UNTRUSTED_MESSAGE } from './config-resolution.js';
import { backendSetting } from './editor-context.js';
import { DebugTerminalListener, terminalConfiguration } from './terminal-listener.js';

export const DEBUG_TERMINAL_COMMAND = 'tfjsCallbacks.createDebugTerminal';
export const DEBUG_TERMINAL_PROFILE = 'tfjsCallbacks.debugTerminal';
const TERMINAL_NAME = 'TF.js Callbacks Debug Terminal';

export function registerDebugTerminal(context: vscode.ExtensionContext): void {
  const bootloader = context.asAbsolutePath('dist/debug-adapter/debuggee/boot.cjs');
  /** Sessions started for a process, waiting for their adapter's bridge socket (by TerminalTarget id). */
  const waiting = new Map<string, (bridgeSocket: string) => void>();

  const startSession = async (request: TerminalDebugRequest): Promise<TerminalSession> => {
    // Trust can be withdrawn after the terminal opened: each process is checked.
    if (!vscode.workspace.isTrusted) throw new Error(UNTRUSTED_MESSAGE);
    const id = randomUUID();
    const socket = new Promise<string>((resolve) => waiting.set(id, resolve));
    const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(request.program)) ?? vscode.workspace.workspaceFolders?.[0];
    try {
      // startDebugging settles after the attach response, which waits for the bridge: the socket comes first, by event.
      const started = Promise.resolve(vscode.debug.startDebugging(folder, terminalConfiguration(request, id)));
      const bridgeSocket = await Promise.race([
        socket,
        started.then((ok) => (ok ? socket : Promise.reject(new Error('VS Code did not start the debug session')))),
      ]);
      // The backend F5 would give a program of this folder (config-resolution.ts, from the same setting).
      return { bridgeSocket, backend: backendSetting(folder) };
    } finally {
      waiting.delete(id);
    }
  };

  let listener: Promise<DebugTerminalListener> | undefined;
  const terminalOptions = async (): Promise<vscode.TerminalOptions> => {
    listener ??= DebugTerminalListener.start(startSession);
    const env = (await listener).terminalEnv(bootloader, process.env.NODE_OPTIONS);
    // Transient: a terminal revived after a reload would point at this extension host's socket, gone by then.
    return { name: TERMINAL_NAME, env, iconPath: new vscode.ThemeIcon('debug'), isTransient: true };
  };

  context.subscriptions.push(
    {
      dispose: () =>
        void listener?.then(
          (l) => l.dispose(),
          () => undefined,
        ),
    },
    vscode.debug.onDidReceiveDebugSessionCustomEvent((e) => {
      if (e.session.type !== DEBUG_TYPE || e.event !== TERMINAL_BRIDGE_EVENT) return;
      const body = e.body as TerminalBridgeEventBody;
      waiting.get(body.id)?.(body.bridgeSocket);
    }),
    vscode.commands.registerCommand(DEBUG_TERMINAL_COMMAND, async () => {
      const refused = terminalRefused();
      if (refused) return void vscode.window.showErrorMessage(refused);
      vscode.window.createTerminal(await terminalOptions()).show();
    }),
    vscode.window.registerTerminalProfileProvider(DEBUG_TERMINAL_PROFILE, {
      async provideTerminalProfile() {
        const refused = terminalRefused();
        if (refused) {
          void vscode.window.showErrorMessage(refused);
          return undefined;
        }
        return new vscode.TerminalProfile(await terminalOptions());
      },
    }),
  );
}

/** Why no Debug Terminal opens here: Windows (platform-support.ts), or an untrusted workspace. */
function terminalRefused(): string | undefined {
  return debugTerminalUnsupported() ?? (vscode.workspace.isTrusted ? undefined : UNTRUSTED_MESSAGE);
}
