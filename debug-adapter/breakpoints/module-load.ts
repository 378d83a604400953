/**
 * What the adapter makes of a CommonJS module the agent stopped before compiling
 * (debuggee/agent/module-loads.ts): the script V8 is about to parse, predicted from the code's
 * source map, so breakpoints can be set by URL before the module's first line runs; and the words
 * for a breakpoint whose file never runs under its own name.
 */
import path from 'node:path';
import { READ_LIMITS, readBoundedTextSync } from '../../runtime/bounded-read.js';
import type { ModuleLoad } from '../debuggee/agent-protocol.js';
import type { ScriptInfo, Sources } from '../sources/sources.js';

/**
 * The script a module load will be. With a source map, the map says where each line runs. Without
 * one, only a file of the breakpoints' that is compiled as it is on disk (the same length, less a
 * byte-order mark, which Node strips): a hook whose output has no map compiles something else, and
 * its breakpoints wait for V8's parse instead of landing on lines of other code.
 */
export function loadScript(sources: Sources, load: ModuleLoad, waitingFiles: readonly string[]): ScriptInfo | undefined {
  if (load.sourceMapURL) return sources.predict(load.file, load.sourceMapURL);
  if (!waitingFiles.includes(load.file)) return undefined;
  let text: string;
  try {
    text = readBoundedTextSync(load.file, { maxBytes: READ_LIMITS.source, what: 'Source file' });
  } catch {
    return undefined;
  }
  return text.replace(/^\uFEFF/, '').length === load.length ? sources.predict(load.file, undefined) : undefined;
}

const stem = (file: string): string => path.basename(file, path.extname(file));

/**
 * Why a breakpoint in `file` does not bind though a file of its name ran (`script`, covering
 * `covered`): the program ran another file, and that file's source map, if any, does not name this
 * one (a build's output without a map, or one that points elsewhere). Undefined where that is not so.
 */
export function otherFileMessage(file: string, script: ScriptInfo, covered: readonly string[]): string | undefined {
  const ran = script.file;
  if (!ran || ran === file || covered.includes(file) || stem(ran) !== stem(file)) return undefined;
  const map = script.map ? `its source map names ${covered.map((f) => path.basename(f)).join(', ') || 'no file'}` : 'it has no source map';
  return `Not bound yet: the program ran ${ran}, not this file, and ${map}.`;
}
