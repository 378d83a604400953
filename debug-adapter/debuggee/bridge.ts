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
 */
import { isMainThread, Worker } from 'node:worker_threads';
import { installAgent } from './agent.js';
import { BRIDGE_METHODS, type BridgeConfig, CONFIG_ENV, SOCKET_ENV } from './bridge-protocol.js';
import { createLineFramer } from './line-framer.js';
import { CHILDREN_FILE, childrenFile, trackDetachedChildren } from './child-tracker.js';
import { mark } from './timeline.js';

// The worker is plain CommonJS run with no loaders: it must not load tsx or this preload again.
// (`__name`: what a transpiler with keepNames wraps functions in.)
const WORKER_SOURCE = `
var __name = (f) => f;
const createLineFramer = ${createLineFramer.toString()};
const { parentPort, workerData } = require('node:worker_threads');
const inspector = require('node:inspector');
const net = require('node:net');
const session = new inspector.Session();
session.connectToMainThread();
const socket = net.connect(workerData.socketPath);
socket.setNoDelay(true);
const send = (message) => socket.write(JSON.stringify(message) + '\\n');
session.on('inspectorNotification', (message) => send(message));
const debuggerOn = new Int32Array(workerData.debuggerOn);
parentPort.on('message', (message) => {
  if (message === 'held') send({ method: ${JSON.stringify(BRIDGE_METHODS.held)}, params: {} });
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
    session.post(message.method, message.params || {}, (error, result) => {
      if (error) send({ id: message.id, error: { code: error.code, message: String(error.message) } });
      else send({ id: message.id, result: result || {} });
    });
  }
});
// The adapter is gone (ended the session, or died): the debuggee goes too, with the detached
// children it recorded, and the session's private directory. This thread runs even while the main
// thread is paused, so it can do that in any state.
const fs = require('node:fs');
const path = require('node:path');
const end = () => {
  const dir = path.dirname(workerData.socketPath);
  try {
    for (const line of fs.readFileSync(path.join(dir, '${CHILDREN_FILE}'), 'utf8').split('\\n')) {
      const pid = Number(line);
      if (!Number.isInteger(pid) || pid <= 1) continue;
      try { process.kill(-pid, 'SIGKILL'); } catch {}
    }
  } catch {}
  if (path.basename(dir).startsWith('tfjs-cb-dbg-')) try { fs.rmSync(dir, { recursive: true, force: true }); } catch {}
  process.kill(process.pid, 'SIGKILL');
};
socket.on('close', end);
socket.on('error', end);
`;

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
    trackDetachedChildren(childrenFile(socketPath));
    const agent = installAgent(globalThis, config ? (JSON.parse(config) as BridgeConfig) : undefined);
    const debuggerOn = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { socketPath, debuggerOn: debuggerOn.buffer }, execArgv: [], env: {} });
    agent.ensureDebugger = () => {
      if (Atomics.load(debuggerOn, 0) === 1) return;
      worker.postMessage('need-debugger');
      if (Atomics.wait(debuggerOn, 0, 0, DEBUGGER_WAIT_MS) === 'timed-out') {
        process.stderr.write(
          `tfjs-callbacks debugger: the adapter did not turn the debugger on within ${DEBUGGER_WAIT_MS / 1000} s; the program goes on without stopping here.\n`,
        );
      }
    };
    holder[HELD] = () => worker.postMessage('held');
    holder[HOLD] = new Promise<void>((resolve, reject) => {
      worker.on('message', (message) => {
        if (message === 'go') resolve();
      });
      worker.once('error', reject);
    }).then(() => {
      // Once running, the bridge must not keep the program alive on its own.
      worker.unref();
    });
  }
}
