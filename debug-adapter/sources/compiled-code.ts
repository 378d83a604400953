/**
 * Which lines of a transpiled file are the compiler's helpers, not the user's code. Babel prints
 * each helper it injects (`_typeof`, `_interopRequireDefault`, regenerator's `_regenerator` with
 * its `tryCatch`, `asyncGeneratorStep`) on a line of its own, mapped to the statement that asked
 * for it (the import, the async function), so a step into one landed on that statement's line.
 * A helper is told by its name and where it is: a line that defines a function of a helper's name
 * (babel's `_x`, TypeScript's `__x`, and babel's few without the underscore) whose source-mapped
 * line does not hold that name. A function of the user's by such a name is written on the line
 * its definition maps to, so it stays the user's.
 */

/** A line that defines a function of a compiler helper's name: `function _typeof(`, `var __awaiter =`. */
const HELPER_LINE = /^\s*(?:function\s+(_[\w$]*|asyncGeneratorStep|tryCatch|ownKeys)\s*\(|var\s+(__[\w$]+)\s*=)/;

/**
 * The generated lines (0-based) of `text` that define a helper: `originalLine(line)` is the text of
 * the original line a generated line maps to, undefined where it maps to none (those lines are
 * the compiler's anyway: sources.ts `compiled`).
 */
export function helperLines(text: string, originalLine: (line: number) => string | undefined): Set<number> {
  const found = new Set<number>();
  for (const [line, code] of text.split('\n').entries()) {
    const match = HELPER_LINE.exec(code);
    const name = match?.[1] ?? match?.[2];
    if (!name) continue;
    const original = originalLine(line);
    if (original !== undefined && !original.includes(name)) found.add(line);
  }
  return found;
}
