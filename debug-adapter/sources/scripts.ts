/**
 * What the adapter knows of the debuggee's scripts: their sources and maps (sources.ts), their
 * generated text, and V8's break locations in them. The stack, exception and parameter-name logic
 * read scripts through this, not through the controller.
 */
import type { Protocol } from 'devtools-protocol';
import type { CdpConnection } from '../cdp/connection.js';
import { AGENT_SOURCE_URL } from '../debuggee/agent-protocol.js';
import { adapterPaths } from '../paths.js';
import { SkipFiles } from './skip-files.js';
import { Sources } from './sources.js';

/** The runtime (built and source) and the adapter's files in the debuggee: never the user's code. */
export const SKIPPED_ALWAYS: readonly string[] = [adapterPaths.runtimeDir, adapterPaths.runtimeSourceDir, ...adapterPaths.debuggeeDirs];

export class Scripts {
  readonly sources = new Sources([adapterPaths.runtimeDir, ...adapterPaths.debuggeeDirs], AGENT_SOURCE_URL);
  /** Which files steps pass over (launch.json's skipFiles); replaced by the launch's own. */
  skip = new SkipFiles(undefined, SKIPPED_ALWAYS);
  private readonly texts = new Map<string, Promise<string | undefined>>();

  constructor(private readonly cdp: () => CdpConnection | undefined) {}

  /** The generated source of a script, fetched once for a script kept (sources.ts), each time for another. */
  text(scriptId: string): Promise<string | undefined> {
    let source = this.texts.get(scriptId);
    if (!source) {
      const cdp = this.cdp();
      source = cdp
        ? cdp.send('Debugger.getScriptSource', { scriptId }).then(
            (r) => r.scriptSource,
            () => undefined,
          )
        : Promise.resolve(undefined);
      if (this.sources.get(scriptId)) this.texts.set(scriptId, source);
    }
    return source;
  }

  /** V8's break locations from `start` (to `end`), in the function at `start` only; none when V8 cannot say. */
  async breakLocations(start: Protocol.Debugger.Location, end?: Protocol.Debugger.Location): Promise<Protocol.Debugger.BreakLocation[]> {
    const cdp = this.cdp();
    if (!cdp) return [];
    try {
      return (await cdp.send('Debugger.getPossibleBreakpoints', { start, ...(end ? { end } : {}), restrictToFunction: true })).locations;
    } catch {
      return [];
    }
  }

  /** Whether V8's break location at `location` is a return (where the frame is about to be left). */
  async isReturn(location: Protocol.Debugger.Location): Promise<boolean> {
    const column = location.columnNumber ?? 0;
    const locations = await this.breakLocations(location, { scriptId: location.scriptId, lineNumber: location.lineNumber, columnNumber: column + 1 });
    return locations.some((l) => l.lineNumber === location.lineNumber && (l.columnNumber ?? 0) === column && l.type === 'return');
  }
}
