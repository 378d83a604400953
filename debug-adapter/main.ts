#!/usr/bin/env node
/**
 * The debug adapter. Run as a program (`node dist/debug-adapter/main.js`) it speaks DAP over
 * stdin/stdout, as any editor's DAP client expects. Imported, it runs nothing: VS Code's extension
 * creates sessions in its own process (`createInlineSession`), which spares each F5 a Node
 * process start and the adapter's load (~120–200 ms on 2 cores, measured by bench:vscode).
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TfjsCallbacksDebugSession } from './session.js';

/** A session for an in-process host (`vscode.DebugAdapterInlineImplementation`): DAP messages in and out, no stdio, no process exit. */
export function createInlineSession(): TfjsCallbacksDebugSession {
  return new TfjsCallbacksDebugSession();
}

function isProgramEntry(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isProgramEntry()) {
  // stdout carries DAP: a stray failure must not crash the session or write to it.
  process.on('unhandledRejection', (err) => {
    process.stderr.write(`tfjs-callbacks debug adapter: ${err instanceof Error ? err.stack : String(err)}\n`);
  });
  TfjsCallbacksDebugSession.run(TfjsCallbacksDebugSession);
}
