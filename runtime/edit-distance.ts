/**
 * How far a misspelling is from a name: the one measure behind every "Did you mean …?" (a Tout
 * dtype in runtime/tout/tout.ts, a callback or node name in debug-adapter/breakpoints/callback-names.ts).
 */

/**
 * Edits (insert, delete, substitute, or swap two neighbours) between two strings, each character
 * edited once at most (optimal string alignment): 'int23' is 1 from 'int32', 'log_hubr' 1 from
 * 'log_huber'. Case counts; callers lower-case both sides where it should not.
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, beforePrevious[j - 2]! + 1);
      current[j] = d;
    }
    [beforePrevious, previous] = [previous, current];
  }
  return previous[b.length]!;
}
