/**
 * A node breakpoint's name against a model's nodes: a node name, its last part or an op; with `*`,
 * a glob over names and ops.
 */
import { lastPart } from '../../shared/callback-answers.js';

export interface NodePattern {
  readonly text: string;
  /** Whether it holds `*`. */
  readonly glob: boolean;
}

export const compilePattern = (text: string): NodePattern => ({ text, glob: text.includes('*') });

/**
 * `*` (any characters, newlines and slashes included) against a whole name, with no regular
 * expression: on a mismatch only the last `*` takes one more character, so a pattern of k stars
 * costs at most name × pattern steps, never the exponential backtracking of `^a.*b.*c$`.
 */
export function globMatches(pattern: string, name: string): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = n;
    } else if (p < pattern.length && pattern[p] === name[n]) {
      p++;
      n++;
    } else if (star >= 0) {
      p = star + 1;
      n = ++resume;
    } else return false;
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}

export const nodeAnswers = (p: NodePattern, name: string, op: string): boolean =>
  p.glob ? globMatches(p.text, name) || globMatches(p.text, op) : p.text === name || p.text === op || p.text === lastPart(name);
