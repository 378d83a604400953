/**
 * The hit-condition grammar (DAP `hitCondition`): which hits of a breakpoint stop. One home for the
 * adapter, which checks the text of source, function and data breakpoints (a refused one is not
 * set, with why), and the agent in the debuggee, which counts function and data breakpoint hits
 * where they happen. A leaf: the agent's bundle takes it as it is.
 */

/**
 * What a DAP hit condition says: which hits stop, also as a JS expression over the hit count `n`
 * (`source`, for V8 to decide where the hit happens; none when every hit stops), or why it cannot
 * be read.
 */
export type ParsedHitCondition =
  | { readonly ok: true; readonly met: (hits: number) => boolean; readonly source?: string }
  | { readonly ok: false; readonly message: string };

/** js-debug's operators (`HitCondition.parse`); a bare count here means `>=`, as it always has in this adapter. */
const HIT_CONDITION = /^(>=|<=|={1,3}|>|<|%)?\s*(\d+)$/;
const HIT_CONDITION_FORMS =
  'Use "5" or ">= 5" (from the 5th hit on), "== 5" (also "=" or "===": the 5th hit only), "> 5", "< 5", "<= 5", or "% 5" (every 5th hit).';

/**
 * Parses a hit condition (DAP `hitCondition`, surrounding spaces allowed). Empty or absent: every
 * hit stops. Anything else unreadable is refused, as js-debug refuses it, rather than read as "always".
 */
export function parseHitCondition(condition: string | undefined): ParsedHitCondition {
  const text = condition?.trim() ?? '';
  if (text === '') return { ok: true, met: () => true };
  const match = HIT_CONDITION.exec(text);
  if (!match) return refused(condition, 'is not understood');
  const n = Number(match[2]);
  switch (match[1]) {
    case '>':
      return { ok: true, met: (hits) => hits > n, source: `n > ${n}` };
    case '<':
      return { ok: true, met: (hits) => hits < n, source: `n < ${n}` };
    case '<=':
      return { ok: true, met: (hits) => hits <= n, source: `n <= ${n}` };
    case '=':
    case '==':
    case '===':
      return { ok: true, met: (hits) => hits === n, source: `n === ${n}` };
    case '%':
      if (n === 0) return refused(condition, 'would never stop (every 0th hit)');
      return { ok: true, met: (hits) => hits % n === 0, source: `n % ${n} === 0` };
    default:
      return { ok: true, met: (hits) => hits >= n, source: `n >= ${n}` };
  }
}

function refused(condition: string | undefined, why: string): ParsedHitCondition {
  return { ok: false, message: `Hit condition ${JSON.stringify(condition)} ${why}, so this breakpoint is not set. ${HIT_CONDITION_FORMS}` };
}

/** Whether the `hits`th hit stops; never for a hit condition that cannot be read (see `parseHitCondition`). */
export function hitConditionMet(condition: string | undefined, hits: number): boolean {
  const parsed = parseHitCondition(condition);
  return parsed.ok && parsed.met(hits);
}

/** The hits test a breakpoint keeps, read once: a hit that does not stop is a count and this comparison. Refused: never. */
export function hitTest(condition: string | undefined): (hits: number) => boolean {
  const parsed = parseHitCondition(condition);
  return parsed.ok ? parsed.met : () => false;
}
