/**
 * The scripts V8 compiles for breakpoint conditions. V8 compiles a condition again at each hit and
 * reports each as a new script (`Debugger.scriptParsed`, no URL, the condition's text as source):
 * 20,000 hits of `false` on a tf.data map line were 20,000 scripts the bridge relayed and the
 * adapter registered, blackboxed and bound breakpoints for, on the cores the program runs on. A
 * script's `hash` is the SHA-256 of its source, so the conditions the adapter sets name theirs:
 * the bridge drops them before relaying (BRIDGE_METHODS.quietScripts), and the adapter ignores any
 * that come another way (attach).
 */
import { createHash } from 'node:crypto';
import type { Protocol } from 'devtools-protocol';
import { BRIDGE_METHODS, type BridgeQuietScriptsParams } from '../debuggee/bridge-protocol.js';
import type { CdpConnection } from './connection.js';

const SETS_BREAKPOINT = new Set(['Debugger.setBreakpoint', 'Debugger.setBreakpointByUrl', 'Debugger.setBreakpointOnFunctionCall']);

export class ConditionScripts {
  private readonly hashes = new Set<string>();

  /** Watches `cdp`'s breakpoint commands; `viaBridge`: tell the bridge each new condition's hash first. */
  constructor(cdp: CdpConnection, viaBridge: boolean) {
    cdp.onCommand((method, params) => {
      const condition = SETS_BREAKPOINT.has(method) ? (params as { condition?: unknown } | undefined)?.condition : undefined;
      if (typeof condition !== 'string' || condition === '') return;
      const hash = createHash('sha256').update(condition).digest('hex');
      if (this.hashes.has(hash)) return;
      this.hashes.add(hash);
      const quiet: BridgeQuietScriptsParams = { hashes: [hash] };
      if (viaBridge) void cdp.sendRaw(BRIDGE_METHODS.quietScripts, quiet).catch(() => {});
    });
  }

  /** Whether a parsed script is one of the conditions' compiles. */
  has(script: Protocol.Debugger.ScriptParsedEvent): boolean {
    return script.url === '' && this.hashes.has(script.hash);
  }
}
