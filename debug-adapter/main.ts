#!/usr/bin/env node
/**
 * The debug adapter: DAP over stdin/stdout.  node dist/debug-adapter/main.js
 */
import { TfjsCallbacksDebugSession } from './session.js';

// stdout carries DAP: a stray failure must not crash the session or write to it.
process.on('unhandledRejection', (err) => {
  process.stderr.write(`tfjs-callbacks debug adapter: ${err instanceof Error ? err.stack : String(err)}\n`);
});

TfjsCallbacksDebugSession.run(TfjsCallbacksDebugSession);
