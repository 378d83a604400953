/**
 * A logpoint's message read as VS Code and js-debug write it: text, with each `{expression}` in
 * braces. The expression is read as JavaScript, so its own braces (object literals, block bodies),
 * strings, template literals and comments do not end it. Pure: expressions.ts compiles the pieces,
 * for both the line written where it runs and the one written at a pause.
 */

export type TemplatePiece =
  | { readonly kind: 'text'; readonly text: string }
  /** `at`: where its `{` is in the message (0-based). */
  | { readonly kind: 'expression'; readonly source: string; readonly at: number }
  /** The message cannot be read past here: what is unclosed, and where (for the user). */
  | { readonly kind: 'unreadable'; readonly message: string };

/** How a scan of code ended: at the `}` that closes it, or at the end of the message, saying what was left open. */
type Scan = { readonly end: number } | { readonly open: string };

/** Words after which a `/` starts a regular expression, not a division. */
const BEFORE_REGEX = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);

/** The message's pieces in order. Empty (or blank) braces stay text, as they always have here and in js-debug. */
export function parseLogpointTemplate(template: string): TemplatePiece[] {
  const pieces: TemplatePiece[] = [];
  let text = '';
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    if (open === -1) break;
    const scan = scanCode(template, open + 1);
    if ('open' in scan) {
      text += template.slice(i, open);
      if (text !== '') pieces.push({ kind: 'text', text });
      return [...pieces, { kind: 'unreadable', message: `Logpoint message: ${scan.open}. A '{' meant as text is written {'{'}` }];
    }
    const source = template.slice(open + 1, scan.end);
    if (source.trim() === '') {
      text += template.slice(i, scan.end + 1);
    } else {
      text += template.slice(i, open);
      if (text !== '') pieces.push({ kind: 'text', text });
      text = '';
      pieces.push({ kind: 'expression', source, at: open });
    }
    i = scan.end + 1;
  }
  text += template.slice(i);
  if (text !== '') pieces.push({ kind: 'text', text });
  return pieces;
}

/** 1-based, as a user counts the message's characters. */
const place = (i: number): string => `character ${i + 1}`;

/**
 * Scans JavaScript from `start` to the `}` that closes the brace before it: braces counted, strings,
 * template literals (their `${…}` scanned the same way), comments and regular expressions skipped.
 */
function scanCode(t: string, start: number): Scan {
  let depth = 0;
  // The last significant token: decides whether a `/` divides or starts a regular expression.
  let last = '';
  let word = '';
  for (let i = start; i < t.length; i++) {
    const c = t[i]!;
    const inWord = /[\w$]/.test(c);
    word = inWord ? word + c : '';
    if (/\s/.test(c)) continue;
    let skipped: Scan | undefined;
    if (c === '"' || c === "'") skipped = skipString(t, i, c);
    else if (c === '`') skipped = skipTemplate(t, i);
    else if (c === '/' && t[i + 1] === '/') {
      const eol = t.indexOf('\n', i);
      if (eol === -1) return { open: `the '{' at ${place(start - 1)} has no matching '}' (the // comment at ${place(i)} runs to the end of the line)` };
      i = eol;
      continue;
    } else if (c === '/' && t[i + 1] === '*') {
      const close = t.indexOf('*/', i + 2);
      if (close === -1) return { open: `the comment at ${place(i)} is not closed` };
      i = close + 1;
      continue;
    } else if (c === '/' && startsRegex(last)) skipped = skipRegex(t, i);
    if (skipped) {
      if ('open' in skipped) return skipped;
      i = skipped.end;
      last = 'literal';
      continue;
    }
    if (c === '{') depth++;
    else if (c === '}' && depth-- === 0) return { end: i };
    last = inWord ? word : c;
  }
  return { open: `the '{' at ${place(start - 1)} has no matching '}'` };
}

/** Whether a `/` after the token `last` starts a regular expression: after an operator, a bracket that opens, or a keyword. */
function startsRegex(last: string): boolean {
  if (last === '' || BEFORE_REGEX.has(last)) return true;
  if (last === 'literal' || /^[\w$]/.test(last)) return false;
  return !')]}'.includes(last);
}

/** A quoted string from its opening quote at `i`: the index of its closing quote. */
function skipString(t: string, i: number, quote: string): Scan {
  for (let j = i + 1; j < t.length; j++) {
    if (t[j] === '\\') j++;
    else if (t[j] === quote) return { end: j };
  }
  return { open: `the string at ${place(i)} is not closed (no ${quote} after it)` };
}

/** A template literal from its backtick at `i`, each `${…}` in it scanned as code: the index of its closing backtick. */
function skipTemplate(t: string, i: number): Scan {
  for (let j = i + 1; j < t.length; j++) {
    if (t[j] === '\\') j++;
    else if (t[j] === '`') return { end: j };
    else if (t[j] === '$' && t[j + 1] === '{') {
      const inner = scanCode(t, j + 2);
      if ('open' in inner) return inner;
      j = inner.end;
    }
  }
  return { open: `the template literal at ${place(i)} is not closed (no \` after it)` };
}

/** A regular expression literal from its `/` at `i` (a `/` in a character class does not end it): the index of its closing `/`. */
function skipRegex(t: string, i: number): Scan {
  let inClass = false;
  for (let j = i + 1; j < t.length && t[j] !== '\n'; j++) {
    if (t[j] === '\\') j++;
    else if (t[j] === '[') inClass = true;
    else if (t[j] === ']') inClass = false;
    else if (t[j] === '/' && !inClass) return { end: j };
  }
  return { open: `the regular expression at ${place(i)} is not closed` };
}
