/**
 * The words and rules of pinned expressions (pins.ts), free of the vscode API so they are tested
 * with node --test: which expression a Variables row, a watch or the palette's input means, and the
 * list after a pin or an unpin (trimmed, no duplicates, at most MAX_PINS).
 */
import { MAX_PINS } from '../debug-adapter/values/pins-limits.js';

export { MAX_PINS };

/**
 * The expression a menu's argument names: a Variables row's `evaluateName` (VS Code passes
 * `{ variable }`), a watch's expression (its element, with `evaluateName` or `name`); undefined
 * when it names none (a row with no evaluateName: a scope's inner value).
 */
export function pinTarget(arg: unknown): string | undefined {
  if (!arg || typeof arg !== 'object') return undefined;
  const a = arg as { variable?: { evaluateName?: unknown }; evaluateName?: unknown; name?: unknown; expression?: unknown };
  for (const candidate of [a.variable?.evaluateName, a.evaluateName, a.expression, a.name]) {
    if (typeof candidate === 'string' && candidate.trim() !== '') return candidate.trim();
  }
  return undefined;
}

/** The list with `expression` pinned (at the end; already there: unchanged), or why it cannot be. */
export function withPin(list: readonly string[], expression: string): { list: string[] } | { error: string } {
  const e = expression.trim();
  if (e === '') return { error: 'Pin in Tensor Inspector needs an expression.' };
  if (list.includes(e)) return { list: [...list] };
  if (list.length >= MAX_PINS) return { error: `At most ${MAX_PINS} expressions can be pinned: unpin one in the Tensor Inspector first.` };
  return { list: [...list, e] };
}

export function withoutPin(list: readonly string[], expression: string): string[] {
  return list.filter((e) => e !== expression);
}
