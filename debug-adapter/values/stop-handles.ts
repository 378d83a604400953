/**
 * The references a stop hands the client (variablesReference, frameId), numbered on from the last
 * stop's instead of from 1000 again as @vscode/debugadapter's Handles does: VS Code keeps showing
 * the last stop's Variables for a moment after the next stop and may still expand them, and a
 * reused number then answered with the new stop's values under the old stop's names. A reference
 * of an earlier stop is told apart (`stale`) so its request can say so.
 */
const FIRST = 1000;
/** DAP references are below 2^31 (VS Code checks); past this, numbering starts again. */
const LAST = 2 ** 31 - 1;

export class StopHandles<T> {
  private next = FIRST;
  /** The first reference of the current stop: those below it (and at least FIRST) were an earlier stop's. */
  private firstOfStop = FIRST;
  private readonly values = new Map<number, T>();

  create(value: T): number {
    if (this.next >= LAST) this.next = this.firstOfStop = FIRST;
    const handle = this.next++;
    this.values.set(handle, value);
    return handle;
  }

  get(handle: number): T | undefined {
    return this.values.get(handle);
  }

  /** Whether `handle` was handed out at an earlier stop: the program ran on since. */
  stale(handle: number): boolean {
    return Number.isInteger(handle) && handle >= FIRST && handle < this.firstOfStop;
  }

  /** The program ran on: this stop's references are gone, and none is handed out again. */
  reset(): void {
    this.values.clear();
    this.firstOfStop = this.next;
  }
}
