/**
 * A run that stalled: Node ran out of things to wait for (timers, I/O) while the program's
 * top-level await, a model run or an async callback's promise was still pending. Node would exit
 * with code 0 and no summary; the CLI says what was still pending instead.
 */
import { formatCallSite } from '../callsite.js';
import type { CallbackStart } from '../events.js';

export class UnsettledRunError extends Error {
  override name = 'UnsettledRunError';
}

export function unsettledMessage(target: string, isModel: boolean, pending: readonly CallbackStart[], cwd = process.cwd()): string {
  const nothingLeft = 'nothing is left that could settle it (no timer, I/O or other pending work)';
  if (pending.length > 0) {
    const callbacks = pending.map((p) => {
      const where = p.node !== undefined ? `node '${p.node}' of ${p.graph ?? 'the model'}` : p.graph ? `graph '${p.graph}'` : 'an eager call';
      const fn = p.callback.functionName && p.callback.functionName !== p.callback.name ? ` (${p.callback.functionName})` : '';
      const site = p.callSite ? `, called at ${formatCallSite(p.callSite, cwd)}` : '';
      return `callback '${p.callback.name}'${fn} [${p.op}] in ${where}${site}`;
    });
    return (
      `${callbacks.join('; ')} never finished: ${pending.length === 1 ? 'its' : 'their'} promise is still pending and ${nothingLeft}. ` +
      `An async callback must resolve or reject; check that every path of it returns (an awaited promise whose resolve is never called hangs it).`
    );
  }
  if (isModel) return `The run of ${target} never finished: it is still pending and ${nothingLeft}.`;
  return (
    `${target} never finished: its top-level await (or a promise it awaits) is still pending and ${nothingLeft}. ` +
    `Make sure every awaited promise resolves or rejects.`
  );
}
