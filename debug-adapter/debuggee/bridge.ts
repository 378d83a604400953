/**
 * Preloaded into the debuggee (`node --import <this>`): connects the V8 inspector to the adapter
 * in-process and holds the program until the adapter has set its breakpoints.
 *
 * Why not `--inspect`: over the inspector's TCP socket every evaluate and every resume→pause costs
 * about 44 ms (Nagle + delayed ACK); this bridge measured 0.3–0.5 ms. A worker thread opens an
 * inspector session on the main thread (`connectToMainThread`) and relays newline-delimited JSON
 * over a Unix socket that only the adapter's user can open. The worker keeps relaying while the
 * main thread is paused.
 *
 * The adapter may leave the V8 debugger off while nothing needs it (no source breakpoint, no
 * exception pauses): with it on, V8 hashes every script it parses, ~80 ms for TF.js's 7 MB. Then
 * the agent's first stop asks for it: the main thread posts to the worker and blocks in
 * Atomics.wait; the adapter's commands still run there (V8 serves inspector interrupts inside
 * Atomics.wait), and its `Bridge.debuggerReady` wakes the main thread, which then stops.
 *
 * When the adapter goes away, a launch's program goes too. A Debug Terminal's is the user's own
 * command: unless the adapter said `Bridge.end` (Stop), a socket that cannot be reached or closes
 * leaves it running to its own end undebugged, with one stderr line saying why.
 */
import { isMainThread, Worker } from 'node:worker_threads';
import { installAgent } from './agent/index.js';
import { chosenBackend } from '../../runtime/backend-state.js';
import { LOGPOINT_BINDING } from './agent-protocol.js';
import {
  BRIDGE_METHODS,
  type BridgeConfig,
  type BridgeHeldParams,
  CONFIG_ENV,
  EXIT_FLUSH_PAYLOAD,
  SOCKET_ENV,
  TERMINAL_PROGRAM_ENV,
} from './bridge-protocol.js';
import { createLineFramer } from './line-framer.js';
import { sessionLossLine } from './session-loss.js';
import { CHILDREN_FILE, childrenFile, trackDetachedChildren } from './child-tracker.js';
import { mark } from './timeline.js';

// The worker is plain CommonJS run with no loaders: it must not load tsx or this preload again.
// (`__name`: what a transpiler with keepNames wraps functions in.)
const WORKER_SOURCE = `
var __name = (f) => f;
const createLineFramer = ${createLineFramer.toString()};
const sessionLossLine = ${sessionLossLine.toString()};
const { parentPort, workerData } = require('node:worker_threads');
const inspector = require('node:inspector');
const net = require('node:net');
const session = new inspector.Session();
session.connectToMainThread();
const socket = net.connect(workerData.socketPath);
socket.setNoDelay(true);
let connected = false;
let running = false;
socket.on('connect', () => (connected = true));
const send = (message) => socket.write(JSON.stringify(message) + '\\n');
const flushed = new Int32Array(workerData.flushed);
// Scripts V8 compiles for breakpoint conditions, one per hit: not relayed (BRIDGE_METHODS.quietScripts).
const quietHashes = new Set();
session.on('inspectorNotification', (message) => {
  const params = message.params;
  if (message.method === 'Debugger.scriptParsed' && params.url === '' && quietHashes.has(params.hash)) return;
  if (message.method !== 'Runtime.bindingCalled' || !params || params.payload !== ${JSON.stringify(EXIT_FLUSH_PAYLOAD)}) return send(message);
  // The program exits: everything before this is in the socket once this write is done.
  socket.write(JSON.stringify({ method: ${JSON.stringify(BRIDGE_METHODS.flushed)}, params: {} }) + '\\n', () => {
    Atomics.store(flushed, 0, 1);
    Atomics.notify(flushed, 0);
  });
});
const debuggerOn = new Int32Array(workerData.debuggerOn);
parentPort.on('message', (message) => {
  if (message && message.held) send({ method: ${JSON.stringify(BRIDGE_METHODS.held)}, params: message.held });
  if (message === 'need-debugger' && Atomics.load(debuggerOn, 0) === 0) send({ method: ${JSON.stringify(BRIDGE_METHODS.debuggerNeeded)}, params: {} });
});
const framer = createLineFramer();
socket.setEncoding('utf8');
socket.on('data', (chunk) => {
  for (const line of framer.push(chunk)) {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      continue; // only the adapter writes here; a torn line is not worth the program's life
    }
    if (message.method === ${JSON.stringify(BRIDGE_METHODS.go)}) {
      running = true;
      parentPort.postMessage('go');
      send({ id: message.id, result: {} });
      continue;
    }
    if (message.method === ${JSON.stringify(BRIDGE_METHODS.debuggerReady)}) {
      Atomics.store(debuggerOn, 0, 1);
      Atomics.notify(debuggerOn, 0);
      send({ id: message.id, result: {} });
      continue;
    }
    if (message.method === ${JSON.stringify(BRIDGE_METHODS.quietScripts)}) {
      for (const hash of (message.params && message.params.hashes) || []) quietHashes.add(hash);
      send({ id: message.id, result: {} });
      continue;
    }
    if (message.method === ${JSON.stringify(BRIDGE_METHODS.end)}) {
      end();
      continue;
    }
    session.post(message.method, message.params || {}, (error, result) => {
      if (error) send({ id: message.id, error: { code: error.code, message: String(error.message) } });
      else send({ id: message.id, result: result || {} });
    });
  }
});
// A launch's adapter is gone (ended the session, or died), or any adapter said Bridge.end: the
// debuggee goes too, with the detached children it recorded, and the session's private directory.
// This thread runs even while the main thread is paused, so it can do that in any state.
const fs = require('node:fs');
const path = require('node:path');
const dir = path.dirname(workerData.socketPath);
const removeDir = () => {
  if (path.basename(dir).startsWith('tfjs-cb-dbg-')) try { fs.rmSync(dir, { recursive: true, force: true }); } catch {}
};
const end = () => {
  try {
    for (const line of fs.readFileSync(path.join(dir, '${CHILDREN_FILE}'), 'utf8').split('\\n')) {
      const pid = Number(line);
      if (!Number.isInteger(pid) || pid <= 1) continue;
      try { process.kill(-pid, 'SIGKILL'); } catch {}
    }
  } catch {}
  removeDir();
  process.kill(process.pid, 'SIGKILL');
};
// A Debug Terminal's program that lost its session: said once, written at once (the main thread
// may be busy for long), the main thread resumed and woken, the agent told (main: runUndebugged).
let lost = false;
const lose = (code) => {
  if (lost) return;
  lost = true;
  const socketPath = workerData.socketPath;
  try { fs.writeSync(2, sessionLossLine({ program: workerData.terminal, socketPath, code, connected, running })); } catch {}
  try { session.disconnect(); } catch {}
  Atomics.store(debuggerOn, 0, 2);
  Atomics.notify(debuggerOn, 0);
  socket.destroy();
  // Connected, the directory is this session's, and its adapter is gone: nobody else removes it.
  if (connected) removeDir();
  parentPort.postMessage('lost');
};
socket.on('close', () => (workerData.terminal ? lose(undefined) : end()));
socket.on('error', (err) => (workerData.terminal ? lose(err.code || err.message) : end()));
`;

/** How long an exiting program waits for its last inspector messages to be written (flushAtExit). */
const EXIT_FLUSH_WAIT_MS = 2000;
/** How long a stop waits for the adapter to turn the debugger on; it answers in milliseconds. */
const DEBUGGER_WAIT_MS = 30_000;
const HOLD = Symbol.for('tfjs-callback-debugger.bridge.go');
/** Tells the adapter the preloads have run (the `?hold` import calls it). */
const HELD = Symbol.for('tfjs-callback-debugger.bridge.held');
const holder = globalThis as unknown as { [HOLD]?: Promise<void>; [HELD]?: () => void };

if (new URL(import.meta.url).search === '?hold') {
  // Imported a second time, after tsx and the loader: hold the program until the adapter says go.
  mark('debuggee: held');
  holder[HELD]?.();
  await holder[HOLD];
  mark('debuggee: released');
} else {
  const socketPath = process.env[SOCKET_ENV];
  if (isMainThread && socketPath) {
    mark('debuggee: bridge loaded');
    process.once('exit', () => mark('debuggee: exit'));
    // Child processes of the program are not debugged through this socket.
    delete process.env[SOCKET_ENV];
    const config = process.env[CONFIG_ENV];
    delete process.env[CONFIG_ENV];
    const terminal = process.env[TERMINAL_PROGRAM_ENV];
    delete process.env[TERMINAL_PROGRAM_ENV];
    trackDetachedChildren(childrenFile(socketPath));
    const agent = installAgent(globalThis, config ? (JSON.parse(config) as BridgeConfig) : undefined);
    const debuggerOn = new Int32Array(new SharedArrayBuffer(4));
    const flushed = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { socketPath, debuggerOn: debuggerOn.buffer, flushed: flushed.buffer, terminal },
      execArgv: [],
      env: {},
    });
    process.once('exit', () => flushAtExit(debuggerOn, flushed));
    agent.ensureDebugger = () => {
      // 1: on; 2: the session is lost (a terminal's program runs on without it).
      if (Atomics.load(debuggerOn, 0) !== 0) return;
      worker.postMessage('need-debugger');
      if (Atomics.wait(debuggerOn, 0, 0, DEBUGGER_WAIT_MS) === 'timed-out') {
        process.stderr.write(
          `tfjs-callbacks debugger: the adapter did not turn the debugger on within ${DEBUGGER_WAIT_MS / 1000} s; the program goes on without stopping here.\n`,
        );
      }
    };
    holder[HELD] = () => {
      const backend = chosenBackend();
      worker.postMessage({ held: (backend ? { backend } : {}) satisfies BridgeHeldParams });
    };
    holder[HOLD] = new Promise<void>((resolve, reject) => {
      worker.on('message', (message) => {
        if (message === 'go') resolve();
        if (message !== 'lost') return;
        runUndebugged(agent);
        resolve();
        void worker.terminate();
      });
      worker.once('error', reject);
    }).then(() => {
      // Once running, the bridge must not keep the program alive on its own.
      worker.unref();
    });
  }
}

/**
 * The program exits (process.exit included): the worker may not have written what the inspector
 * said last (a logpoint's lines written where they ran, the agent's notices), and the process's end
 * takes the worker with it: 2,104 of 3,000 lines reached a loaded machine's adapter. The main
 * thread calls the logpoint binding with a marker, which reaches the worker after everything
 * before it, and waits until the worker has written it.
 */
function flushAtExit(debuggerOn: Int32Array, flushed: Int32Array): void {
  const binding = (globalThis as Record<string, unknown>)[LOGPOINT_BINDING];
  // No binding: no adapter has connected. 2: the session is lost.
  if (typeof binding !== 'function' || Atomics.load(debuggerOn, 0) === 2) return;
  binding(EXIT_FLUSH_PAYLOAD);
  Atomics.wait(flushed, 0, 0, EXIT_FLUSH_WAIT_MS);
}

/** A terminal's program whose session is lost: no stop, watch or record of the agent's stays on. */
function runUndebugged(agent: ReturnType<typeof installAgent>): void {
  agent.ensureDebugger = undefined;
  agent.configure({
    breakOnCallbacks: [],
    functionBreakpoints: [],
    breakOnToutMismatch: false,
    breakOnNonFinite: false,
    breakOnGraphNonFinite: false,
    breakOnOpNonFinite: false,
    watchGraph: false,
    keepInputs: false,
    debuggerBeforeCallbacks: false,
  });
  agent.watchVariables([]);
}
