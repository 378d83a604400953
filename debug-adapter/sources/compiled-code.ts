/**
 * Which lines of a transpiled file are the compiler's helpers, not the user's code. Babel prints
 * each helper it injects (`_typeof`, `_interopRequireDefault`, regenerator's `_regenerator` with
 * its `tryCatch`, `asyncGeneratorStep`) on a line of its own, mapped to the statement that asked
 * for it (the import, the async function), so a step into one landed on that statement's line.
 * A helper is told by its name and where it is: a line that starts defining a function of a
 * helper's name (babel's `_x`, and its few without the underscore) and maps to one or two
 * original lines (the statement that asked for it), neither holding that name. A function of the
 * user's by such a name is written on the line its definition maps to, so it stays the user's; a
 * line of the user's code that only starts with one (a whole module on one line, as esbuild
 * writes it) maps to many. TypeScript's helpers map to nothing (sources.ts `compiled`).
 */

/** A line that starts defining a function of a compiler helper's name: `function _typeof(`. */
const HELPER_LINE = /^\s*function\s+(_[\w$]*|asyncGeneratorStep|tryCatch|ownKeys)\s*\(/;

/**
 * The generated lines (0-based) of `text` that define a helper: `originalLines(line)` are the
 * texts of the distinct original lines a generated line maps to (none where it maps to none:
 * those lines are the compiler's anyway).
 */
export function helperLines(text: string, originalLines: (line: number) => readonly string[]): Set<number> {
  const found = new Set<number>();
  for (const [line, code] of text.split('\n').entries()) {
    const name = HELPER_LINE.exec(code)?.[1];
    if (!name) continue;
    const originals = originalLines(line);
    if (originals.length > 0 && originals.length <= 2 && !originals.some((o) => o.includes(name))) found.add(line);
  }
  return found;
}
