/**
 * Breakpoints a step sets for itself, so the code it passes over runs at full speed.
 *
 * V8 steps by running everything in stepping mode until it reaches a frame it does not skip: every
 * call is checked against the blackbox, and Node's internals are not blackboxed at all. A Step Out
 * of a custom layer's `call()` under `model.fit` ran a whole batch of TF.js that way (74 s; the
 * batch takes 1 s). Instead, a step that leaves the program's frame arms a breakpoint at every
 * break location of the program's own scripts and resumes: the first one hit is the next line of
 * the program's code that runs, wherever it is (the caller, the next batch's `call()`, the code
 * after an `await`). Only the first location of each line of each function is armed (sources/line-entries.ts).
 * They are removed at the stop, before anything else is sent.
 */
import type { Protocol } from 'devtools-protocol';
import type { CdpConnection } from '../cdp/connection.js';
import { lineEntries } from '../sources/line-entries.js';
import type { ScriptInfo } from '../sources/sources.js';

type Location = Protocol.Debugger.Location;

export class StepBreakpoints {
  /** The break locations of a script a step watches (the first of each line of each function), found once. */
  private readonly locations = new Map<string, Promise<Location[]>>();
  /** The break locations of one function (not of functions inside it), by its start. */
  private readonly functions = new Map<string, Promise<Protocol.Debugger.BreakLocation[]>>();
  private readonly armed = new Set<string>();
  private pending: Promise<void> = Promise.resolve();
  /** How many breakpoints steps have set in all, for tests that count. */
  setCount = 0;

  constructor(
    private readonly cdp: () => CdpConnection | undefined,
    /** A script's generated source. */
    private readonly text: (scriptId: string) => Promise<string | undefined>,
    /** The line a location counts on: the user's source line where a source map says. */
    private readonly lineOf: (location: Location) => string | number,
    /** Whether a location is the compiler's (a line its source map leaves out): never a step's stop. */
    private readonly compiled: (location: Location) => boolean = () => false,
  ) {}

  /**
   * Arms every break location of `scripts` but those `skipped` says. The commands are sent before
   * `then` (the resume) and awaited after it: V8 takes them in order, so they hold before the
   * program runs, and the step costs no round trip for them.
   */
  async arm(scripts: readonly ScriptInfo[], skipped: (location: Location) => boolean, then: () => Promise<unknown>): Promise<void> {
    const cdp = this.cdp();
    if (!cdp) return;
    const all = (await Promise.all(scripts.map((s) => this.locationsOf(cdp, s.scriptId)))).flat();
    await this.setAll(
      cdp,
      all.filter((l) => !skipped(l)),
      then,
    );
  }

  /** Arms the own break locations of the function at `functionLocation` (not of functions inside it). */
  async armFunction(functionLocation: Location, then: () => Promise<unknown>): Promise<void> {
    const cdp = this.cdp();
    if (!cdp) return;
    await this.setAll(
      cdp,
      (await this.functionLocations(functionLocation)).filter((l) => !this.compiled(l)),
      then,
    );
  }

  /** The function's own locations on one line (`onLine` says which line a location is on). */
  async ownLocationsOnLine(functionLocation: Location, onLine: (location: Location) => boolean): Promise<Location[]> {
    return (await this.functionLocations(functionLocation)).filter(onLine);
  }

  /**
   * The function's first break location, and whether a location lies in its text (its own code
   * and the functions written inside it), from its start to its last own location.
   */
  async functionRange(functionLocation: Location): Promise<{ first: Location; holds: (location: Location) => boolean }> {
    const own = await this.functionLocations(functionLocation);
    const first = own[0] ?? functionLocation;
    const last = own.at(-1) ?? functionLocation;
    const notAfter = (a: Location, b: Location) =>
      a.lineNumber < b.lineNumber || (a.lineNumber === b.lineNumber && (a.columnNumber ?? 0) <= (b.columnNumber ?? 0));
    return { first, holds: (l) => l.scriptId === functionLocation.scriptId && notAfter(functionLocation, l) && notAfter(l, last) };
  }

  /** Whether `location` is a return of the function at `functionLocation` (the frame is about to be left). */
  async isReturn(functionLocation: Location, location: Location): Promise<boolean> {
    return (await this.functionLocations(functionLocation)).some((l) => l.type === 'return' && sameLocation(l, location));
  }

  private async setAll(cdp: CdpConnection, locations: readonly Location[], then: () => Promise<unknown>): Promise<void> {
    const sent = locations.map((l) =>
      cdp.send('Debugger.setBreakpoint', { location: { scriptId: l.scriptId, lineNumber: l.lineNumber, columnNumber: l.columnNumber ?? 0 } }).then(
        (r) => r.breakpointId,
        () => undefined,
      ),
    );
    this.setCount += locations.length;
    const ids = Promise.all(sent).then((all) => {
      for (const id of all) if (id) this.armed.add(id);
    });
    this.pending = ids;
    const resumed = then();
    await ids;
    await resumed;
  }

  /**
   * Settles when the ids of the breakpoints last sent are known. A pause can be handled before:
   * the answers and the paused event come in one read, and the event's handler may run first.
   */
  settled(): Promise<void> {
    return this.pending;
  }

  /** Removes the step's breakpoints; sent at once, so they are gone before any later command. */
  disarm(): void {
    const cdp = this.cdp();
    for (const breakpointId of this.armed) void cdp?.send('Debugger.removeBreakpoint', { breakpointId }).catch(() => {});
    this.armed.clear();
  }

  /** Forgets what was learnt of a script (its code is gone with the debuggee). */
  reset(): void {
    this.locations.clear();
    this.functions.clear();
    this.armed.clear();
  }

  private functionLocations(start: Location): Promise<Protocol.Debugger.BreakLocation[]> {
    const key = `${start.scriptId}:${start.lineNumber}:${start.columnNumber ?? 0}`;
    let found = this.functions.get(key);
    if (!found) {
      const cdp = this.cdp();
      found = cdp
        ? cdp.send('Debugger.getPossibleBreakpoints', { start, restrictToFunction: true }).then(
            (r) => r.locations,
            () => [],
          )
        : Promise.resolve([]);
      this.functions.set(key, found);
    }
    return found;
  }

  private locationsOf(cdp: CdpConnection, scriptId: string): Promise<Location[]> {
    let found = this.locations.get(scriptId);
    if (!found) {
      const all = cdp.send('Debugger.getPossibleBreakpoints', { start: { scriptId, lineNumber: 0, columnNumber: 0 } }).then(
        (r) =>
          r.locations.map((l) => ({
            scriptId: l.scriptId,
            lineNumber: l.lineNumber,
            ...(l.columnNumber !== undefined ? { columnNumber: l.columnNumber } : {}),
          })),
        () => [],
      );
      found = Promise.all([all, this.text(scriptId)]).then(([all, text]) => {
        const locations = all.filter((l) => !this.compiled(l));
        return text === undefined ? locations : lineEntries(text, locations, this.lineOf);
      });
      this.locations.set(scriptId, found);
    }
    return found;
  }
}

export function sameLocation(a: Location, b: Location): boolean {
  return a.scriptId === b.scriptId && a.lineNumber === b.lineNumber && (a.columnNumber ?? 0) === (b.columnNumber ?? 0);
}
