/**
 * The remote objects of a stop live in one CDP object group, released when the program runs on
 * (js-debug does the same): V8 keeps every object it hands out an objectId for until that id's
 * group is released, and ids handed out with no group live as long as the connection, so without
 * this every value ever shown stays alive in the debuggee for the whole session.
 *
 * Everything the adapter creates for a stop goes in the stop's group: evaluate results, the agent's
 * answers by reference, and their properties (Runtime.getProperties puts children in their
 * parent's group; the scope objects of a pause are V8's own 'backtrace' group, which V8 releases
 * itself). What must outlive a stop is fetched with no group (the agent's target, the debuggee's
 * global object) or kept by value (locations, names, memory pins). Objects made while the program
 * runs go in the group the next release takes.
 */
import type { CdpConnection } from './connection.js';

/** Per connection, how many stop groups were released. */
const released = new WeakMap<CdpConnection, number>();

/** The object group of the current stop on `cdp`. */
export function stopGroup(cdp: CdpConnection): string {
  return `tfjs-callbacks-stop-${released.get(cdp) ?? 0}`;
}

/**
 * Releases the current stop's group; later objects go in a new one. Not awaited: sent before the
 * command that resumes the program, it costs no round trip, and the debuggee answers it in order.
 */
export function releaseStopGroup(cdp: CdpConnection): void {
  const group = stopGroup(cdp);
  released.set(cdp, (released.get(cdp) ?? 0) + 1);
  if (!cdp.isClosed) cdp.send('Runtime.releaseObjectGroup', { objectGroup: group }).catch(() => {});
}
