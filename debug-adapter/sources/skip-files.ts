/**
 * Which files steps pass over (launch.json's `skipFiles`, in js-debug's syntax): globs over absolute
 * paths, `<node_internals>/**` for Node's own modules, a leading `!` to take files back. The runtime
 * and the adapter's own files are always passed over. "Toggle Skipping this File" flips one file at
 * run time, as in js-debug.
 */
import path from 'node:path';
import picomatch from 'picomatch';
import type { CdpConnection } from '../cdp/connection.js';
import { escapeRegExp } from '../../runtime/escape-regexp.js';
import { AGENT_SOURCE_URL } from '../debuggee/agent-protocol.js';
import type { ScriptInfo, Sources } from './sources.js';

/** What a launch skips when it names nothing: Node's internals and every installed package. */
export const DEFAULT_SKIP_FILES: readonly string[] = ['<node_internals>/**', '**/node_modules/**'];

const NODE_INTERNALS = '<node_internals>';

interface Rule {
  readonly negated: boolean;
  readonly internals: boolean;
  readonly matches: (file: string) => boolean;
}

export class SkipFiles {
  private readonly rules: readonly Rule[];
  /** Files flipped by the user: true skipped, false stepped through. */
  private readonly toggled = new Map<string, boolean>();

  /**
   * @param globs launch.json's skipFiles (undefined: the defaults).
   * @param alwaysSkipped folders never stepped through (the runtime, the adapter's agent).
   */
  constructor(
    globs: readonly string[] = DEFAULT_SKIP_FILES,
    readonly alwaysSkipped: readonly string[] = [],
  ) {
    this.rules = globs.map(rule);
  }

  /** Whether steps pass over code of `file` (a path) or of a script with no file (`node:` URLs). */
  skips(where: { readonly file?: string; readonly url?: string }): boolean {
    const { file, url } = where;
    if (file === undefined) return url?.startsWith('node:') ? this.skipsInternals() : false;
    if (this.alwaysSkipped.some((dir) => file.startsWith(dir + path.sep))) return true;
    const flipped = this.toggled.get(file);
    if (flipped !== undefined) return flipped;
    let skipped = false;
    for (const r of this.rules) if (!r.internals && r.matches(file)) skipped = !r.negated;
    return skipped;
  }

  /** Flips a file; returns whether it is skipped now. */
  toggle(file: string): boolean {
    const skipped = !this.skips({ file });
    this.toggled.set(file, skipped);
    return skipped;
  }

  /** Whether some file under node_modules was taken back from skipping (by a `!` glob or a toggle). */
  takesBackPackages(): boolean {
    if ([...this.toggled].some(([file, skipped]) => !skipped && file.includes(`${path.sep}node_modules${path.sep}`))) return true;
    return this.rules.some((r) => r.negated && !r.internals);
  }

  /** Whether every installed package is skipped by a rule (V8's blackbox pattern can say so at once). */
  skipsAllPackages(): boolean {
    return !this.takesBackPackages() && this.skips({ file: `${path.sep}x${path.sep}node_modules${path.sep}p${path.sep}i.js` });
  }

  skipsInternals(): boolean {
    let skipped = false;
    for (const r of this.rules) if (r.internals) skipped = !r.negated;
    return skipped;
  }
}

/**
 * V8's blackbox as skipFiles says, so that steps and exception pauses pass over what is skipped:
 * patterns for the folders always skipped, the agent, Node's internals and every package when all
 * are skipped; each other skipped script by its range (set as it is parsed). In the user's
 * transpiled files, the compiler's lines (sources.ts `compiledLines`: what the source map leaves
 * out, babel's helpers): V8 passes over a function wholly inside them (a re-export getter,
 * babel's `_typeof`), the compiler's and not the user's, as it passes over a library's.
 */
export class Blackbox {
  /** Scripts blackboxed by their range (skipFiles globs no pattern says, or a compiler's lines). */
  private readonly ranged = new Set<string>();

  constructor(private readonly sources?: Pick<Sources, 'compiledLines' | 'markHelpers'>) {}

  /** Sets the patterns, then each script's range: after the debugger comes on, or a file's skipping flips. */
  async apply(cdp: CdpConnection, skip: SkipFiles, scripts: readonly ScriptInfo[]): Promise<void> {
    const patterns = [...skip.alwaysSkipped.map(escapeRegExp), escapeRegExp(AGENT_SOURCE_URL), '^wasm:'];
    if (skip.skipsInternals()) patterns.push('^node:');
    if (skip.skipsAllPackages()) patterns.push('/node_modules/');
    await cdp.send('Debugger.setBlackboxPatterns', { patterns });
    await Promise.all(scripts.map((script) => this.script(cdp, skip, script)));
  }

  /** A script skipFiles skips that no pattern covers is blackboxed whole; one taken back is cleared. */
  async script(cdp: CdpConnection, skip: SkipFiles, script: ScriptInfo): Promise<void> {
    const file = script.file;
    if (!file) return;
    const byPattern = skip.alwaysSkipped.some((dir) => file.startsWith(dir)) || (skip.skipsAllPackages() && file.includes('/node_modules/'));
    if (byPattern) return;
    const skipped = skip.skips({ file });
    const compiled = skipped || script.predicted ? [] : await this.compiledLines(cdp, script);
    if (!skipped && compiled.length === 0 && !this.ranged.has(script.scriptId)) return;
    if (skipped || compiled.length > 0) this.ranged.add(script.scriptId);
    else this.ranged.delete(script.scriptId);
    const positions = skipped
      ? [{ lineNumber: 0, columnNumber: 0 }]
      : compiled.flatMap(([first, end]) => [
          { lineNumber: first, columnNumber: 0 },
          { lineNumber: end, columnNumber: 0 },
        ]);
    await cdp.send('Debugger.setBlackboxedRanges', { scriptId: script.scriptId, positions }).catch(() => {});
  }

  /** A user's source-mapped script's compiled lines, its generated text read once to find babel's helpers. */
  private async compiledLines(cdp: CdpConnection, script: ScriptInfo): Promise<[number, number][]> {
    if (!this.sources || !script.map) return [];
    if (!script.helperLines) {
      const text = await cdp.send('Debugger.getScriptSource', { scriptId: script.scriptId }).catch(() => undefined);
      if (text) this.sources.markHelpers(script, text.scriptSource);
    }
    return this.sources.compiledLines(script);
  }
}

function rule(glob: string): Rule {
  const negated = glob.startsWith('!');
  const body = negated ? glob.slice(1) : glob;
  if (body.startsWith(NODE_INTERNALS)) return { negated, internals: true, matches: () => true };
  // Paths are matched whole; a glob of a folder (`/a/b`) also takes what is under it, as js-debug does.
  const matcher = picomatch([body, `${body.replace(/\/+$/, '')}/**`], { dot: true, windows: process.platform === 'win32' });
  return { negated, internals: false, matches: matcher };
}

/** The launch option's value checked: a list of glob strings. */
export function skipFilesOption(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v === '')) {
    throw new TypeError(`"skipFiles" must be a list of glob patterns (like "<node_internals>/**" or "**/node_modules/**"), not ${JSON.stringify(value)}.`);
  }
  return value as string[];
}
