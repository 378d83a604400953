/**
 * The handshakes that give the controller its debuggee: a launched program through the in-process
 * bridge (debuggee/bridge.ts), or a running one through its inspector (attach, which also loads
 * the agent into it).
 */
import { existsSync, readFileSync } from 'node:fs';
import { CdpConnection, COMMAND_TIMEOUT_MS, type Transport } from './cdp/connection.js';
import { ATTACH_STEP_TIMEOUT_MS, inspectorWebSocket } from './cdp/transports.js';
import type { Controller } from './pauses/controller.js';
import { BRIDGE_METHODS, type BridgeHeldParams } from './debuggee/bridge-protocol.js';
import type { FilterConfig } from './launch-config.js';
import { messageOf } from './request-guard.js';
import { mark } from './debuggee/timeline.js';
import { AGENT_SOURCE_URL } from './state/stack.js';
import { adapterPaths } from './paths.js';

interface ConnectOptions {
  readonly filters: FilterConfig;
  /** Runs once connected, before the program runs on (the session's exception filters). */
  readonly configure: () => Promise<void>;
}

/** A launched program, held at its bridge until `beforeRun` settles; then released. */
export async function connectLaunched(
  controller: Controller,
  transport: Transport,
  options: ConnectOptions & { readonly debuggerNow: boolean; readonly stopOnEntryFile?: string; readonly beforeRun: Promise<unknown> },
): Promise<void> {
  const cdp = new CdpConnection(transport);
  // The V8 debugger comes on once the preloads (tsx, the runtime, TF.js) have run, never during
  // them: with it on, every script V8 parses is hashed and reported, each source-mapped module
  // pauses to bind breakpoints, and WebAssembly (Node's CommonJS export scanner included) runs as
  // debug code, which slowed that loading by 150-400 ms.
  controller.holdDebuggerUntil(
    new Promise<void>((resolve) => {
      cdp.onRaw(BRIDGE_METHODS.held, (params) => {
        const backend = (params as BridgeHeldParams | undefined)?.backend;
        if (backend) controller.emit('backendChosen', backend);
        resolve();
      });
      cdp.onClose(() => resolve());
    }),
  );
  // The debugger may come on later (bridge.ts): the bridge releases a stop waiting for it.
  const ready = () => void cdp.sendRaw(BRIDGE_METHODS.debuggerReady).catch(() => {});
  controller.on('debuggerEnabled', ready);
  cdp.onRaw(BRIDGE_METHODS.debuggerNeeded, () => {
    controller.enableDebugger().then(ready, (err: unknown) => {
      controller.emit('output', 'stderr', `debugger: cannot turn the debugger on: ${messageOf(err)}\n`);
      ready();
    });
  });
  const { filters, debuggerNow, stopOnEntryFile } = options;
  await controller.connect(cdp, { filters, debuggerNow, viaBridge: true, ...(stopOnEntryFile ? { stopOnEntryFile } : {}) });
  await options.configure();
  await options.beforeRun;
  mark('adapter: go');
  await cdp.sendRaw(BRIDGE_METHODS.go);
}

/** A program started with --inspect: the agent loaded into it, and a waiting program let run. */
export async function connectAttached(controller: Controller, host: string, port: number, options: ConnectOptions): Promise<void> {
  const injectAgent = agentScript();
  // Until it has answered the handshake, a target gets a short time for each answer.
  const cdp = new CdpConnection(await inspectorWebSocket(host, port), ATTACH_STEP_TIMEOUT_MS);
  try {
    await controller.connect(cdp, { filters: options.filters, debuggerNow: true, injectAgent });
    await options.configure();
    await cdp.send('Runtime.runIfWaitingForDebugger');
  } catch (err) {
    controller.disconnect();
    throw new Error(`the inspector at ${host}:${port} did not complete the handshake: ${messageOf(err)}`);
  }
  cdp.timeoutMs = COMMAND_TIMEOUT_MS;
}

/**
 * The agent as the script the adapter injects, named AGENT_SOURCE_URL (hidden from stacks, skipped).
 * The build bundles it into its own file (scripts/build.mjs), read here rather than embedded in the
 * adapter's bundle: the adapter runs from that bundle, from tsc's output and from its TypeScript
 * sources (tests, under tsx), and one file beside the built adapter serves all three; launches never
 * read it (the bridge imports the agent's modules).
 */
function agentScript(): string {
  const file = adapterPaths.agentBundle;
  if (!existsSync(file)) throw new Error(`the debugger's agent script ${file} is missing: run npm run build`);
  return `${readFileSync(file, 'utf8')}\n//# sourceURL=${AGENT_SOURCE_URL}`;
}
