/**
 * Just enough JavaScript scanning for what V8 does not say at a pause: whether a frame's position
 * lies in the `try` block of a try statement with a `catch` (V8's catch prediction only says that
 * something catches: around a callback the runtime always does), whether a function is async, and
 * where its parameters are. Works on any JS, tsx's one-line output included: strings, template
 * literals, comments and regular expressions are skipped, so their braces do not count.
 */

interface Token {
  readonly kind: 'word' | 'punct' | 'literal';
  readonly text: string;
  readonly at: number;
}

/** Words after which a `/` starts a regular expression, not a division. */
const BEFORE_EXPRESSION = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'delete', 'void', 'throw', 'instanceof', 'yield', 'await']);

const WORD_START = /[A-Za-z_$#\u0080-\uffff]/;
const WORD_PART = /[\w$\u0080-\uffff]/;

function* tokens(src: string, from: number): Generator<Token> {
  let i = from;
  // Open braces: 'template' for a template literal's `${`, whose `}` resumes the literal.
  const braces: ('code' | 'template')[] = [];
  let prev: Token | undefined;
  const regexAllowed = () => !prev || (prev.kind === 'word' ? BEFORE_EXPRESSION.has(prev.text) : prev.kind === 'punct' && !')]}'.includes(prev.text));
  while (i < src.length) {
    const c = src[i]!;
    const start = i;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029' || c === '\v' || c === '\f') {
      i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '/') {
      while (i < src.length && src[i] !== '\n' && src[i] !== '\r') i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      i = end < 0 ? src.length : end + 2;
      continue;
    }
    let token: Token;
    if (c === '"' || c === "'") {
      i = skipString(src, i);
      token = { kind: 'literal', text: 'string', at: start };
    } else if (c === '`' || (c === '}' && braces.at(-1) === 'template')) {
      if (c === '}') braces.pop();
      const end = skipTemplate(src, i + 1);
      i = end.index;
      if (end.expression) {
        braces.push('template');
        prev = { kind: 'punct', text: '(', at: start }; // an expression follows
        continue;
      }
      token = { kind: 'literal', text: 'template', at: start };
    } else if (c === '/' && regexAllowed()) {
      i = skipRegExp(src, i);
      token = { kind: 'literal', text: 'regexp', at: start };
    } else if (WORD_START.test(c)) {
      i++;
      while (i < src.length && WORD_PART.test(src[i]!)) i++;
      token = { kind: 'word', text: src.slice(start, i), at: start };
    } else if (c >= '0' && c <= '9') {
      i++;
      while (i < src.length && /[\w.]/.test(src[i]!)) i++;
      token = { kind: 'literal', text: 'number', at: start };
    } else {
      i++;
      if (c === '{') braces.push('code');
      else if (c === '}') braces.pop();
      token = { kind: 'punct', text: c, at: start };
    }
    prev = token;
    yield token;
  }
}

function skipString(src: string, i: number): number {
  const quote = src[i];
  for (i++; i < src.length; i++) {
    if (src[i] === '\\') i++;
    else if (src[i] === quote || src[i] === '\n') return i + 1;
  }
  return i;
}

/** From inside a template literal: to its end, or into its next `${`. */
function skipTemplate(src: string, i: number): { index: number; expression: boolean } {
  for (; i < src.length; i++) {
    if (src[i] === '\\') i++;
    else if (src[i] === '`') return { index: i + 1, expression: false };
    else if (src[i] === '$' && src[i + 1] === '{') return { index: i + 2, expression: true };
  }
  return { index: i, expression: false };
}

function skipRegExp(src: string, i: number): number {
  let inClass = false;
  for (i++; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) break;
    else if (c === '\n') return i;
  }
  for (i++; i < src.length && WORD_PART.test(src[i]!); i++);
  return i;
}

/**
 * Whether `at` lies in the `try` block of a try statement that has a `catch` clause, within the
 * function whose source starts at `functionStart` (V8's `functionLocation`: its parameter list).
 * `at` must be a position of that function's own code (a frame's location), not of a function
 * nested in it. A `catch` or `finally` block does not protect itself.
 */
export function inTryWithCatch(src: string, functionStart: number, at: number): boolean {
  const blocks: { isTry: boolean; hasCatch?: boolean }[] = [];
  let watching: { isTry: boolean; hasCatch?: boolean }[] | undefined;
  let justClosed: { isTry: boolean; hasCatch?: boolean } | undefined;
  let prev: Token | undefined;
  for (const t of tokens(src, functionStart)) {
    if (justClosed) {
      justClosed.hasCatch = t.kind === 'word' && t.text === 'catch';
      justClosed = undefined;
      if (watching?.every((b) => b.hasCatch !== undefined)) break;
    }
    if (!watching && t.at >= at) {
      watching = blocks.filter((b) => b.isTry);
      if (watching.length === 0) return false;
    }
    if (t.kind === 'punct' && t.text === '{') {
      blocks.push({ isTry: prev?.kind === 'word' && prev.text === 'try' });
    } else if (t.kind === 'punct' && t.text === '}') {
      const block = blocks.pop();
      if (!block) break; // past the function's end
      if (block.isTry) justClosed = block;
    }
    prev = t;
  }
  return watching?.some((b) => b.hasCatch === true) ?? false;
}

/** Whether the function whose parameter list starts at `functionStart` is declared `async`. */
export function isAsyncFunction(src: string, functionStart: number): boolean {
  const before = src.slice(Math.max(0, functionStart - 200), functionStart);
  return /\basync\s*(?:function\b\s*\*?\s*[\w$]*\s*|[\w$#]+\s*)?$/.test(before) || /\basync\s*$/.test(before);
}

/**
 * The parameters of the function whose parameter list starts at `functionStart` (`(` or, for
 * `x => …`, the name): each identifier's name and offset; undefined for a destructured one.
 */
export function parameterList(src: string, functionStart: number): ({ name: string; at: number } | undefined)[] {
  if (src[functionStart] !== '(') {
    const m = /^[A-Za-z_$][\w$]*/.exec(src.slice(functionStart, functionStart + 200));
    return m ? [{ name: m[0], at: functionStart }] : [];
  }
  const params: ({ name: string; at: number } | undefined)[] = [];
  let depth = 0;
  let expectParam = true;
  for (const t of tokens(src, functionStart)) {
    if (t.kind === 'punct' && '([{'.includes(t.text)) {
      depth++;
      if (depth === 2 && expectParam && t.text !== '(') {
        params.push(undefined); // destructured
        expectParam = false;
      }
      continue;
    }
    if (t.kind === 'punct' && ')]}'.includes(t.text)) {
      depth--;
      if (depth === 0) break;
      continue;
    }
    if (depth !== 1) continue;
    if (t.kind === 'punct' && t.text === ',') {
      expectParam = true;
      continue;
    }
    if (t.kind === 'punct' && t.text === '.') continue; // a rest parameter's `...`
    if (expectParam && t.kind === 'word') {
      params.push({ name: t.text, at: t.at });
      expectParam = false;
    }
  }
  return params;
}

/** The offset of a 0-based line and column (V8's line ends: \n, \r, \r\n, U+2028, U+2029). */
export function offsetOf(src: string, lineNumber: number, columnNumber: number): number {
  let offset = 0;
  for (let line = 0; line < lineNumber; line++) {
    const m = /\r\n|[\n\r\u2028\u2029]/g;
    m.lastIndex = offset;
    const found = m.exec(src);
    if (!found) return src.length;
    offset = found.index + found[0].length;
  }
  return offset + columnNumber;
}

/** The 0-based line and column of an offset. */
export function positionOf(src: string, offset: number): { lineNumber: number; columnNumber: number } {
  let lineNumber = 0;
  let lineStart = 0;
  const m = /\r\n|[\n\r\u2028\u2029]/g;
  for (let found = m.exec(src); found && found.index < offset; found = m.exec(src)) {
    lineNumber++;
    lineStart = found.index + found[0].length;
  }
  return { lineNumber, columnNumber: offset - lineStart };
}

/**
 * Where the statement that returns at `returnAt` (a V8 return position of the function whose
 * parameter list starts at `functionStart`) begins: its `return` keyword when it is the last
 * statement of the function's body, an arrow function's expression body; undefined for the
 * implicit return at the end of a body, or a return nested in a block.
 */
export function returnStatementStart(src: string, functionStart: number, returnAt: number): number | undefined {
  let depth = 0;
  let paramsDone = false;
  let arrow = false;
  let bodyDepth: number | undefined;
  let candidate: number | undefined;
  let terminated = false;
  let prev: Token | undefined;
  for (const t of tokens(src, functionStart)) {
    if (t.at >= returnAt) break;
    const opens = t.kind === 'punct' && '([{'.includes(t.text);
    const closes = t.kind === 'punct' && ')]}'.includes(t.text);
    if (!paramsDone) {
      if (opens) depth++;
      else if (closes) depth--;
      // The parameter list ends at its `)`, or is one name (`x => …`).
      if (depth === 0 && (closes || (t.kind === 'word' && src[functionStart] !== '('))) paramsDone = true;
      prev = t;
      continue;
    }
    if (bodyDepth === undefined) {
      if (t.kind === 'punct' && t.text === '=') {
        arrow = true; // the first half of `=>`
      } else if (arrow && prev?.text === '=' && t.text === '>') {
        // next token starts the body
      } else if (t.kind === 'punct' && t.text === '{') {
        bodyDepth = depth + 1;
        depth++;
      } else if (arrow && prev?.text === '>') {
        return t.at; // an expression body
      }
      prev = t;
      continue;
    }
    if (opens) depth++;
    else if (closes) depth--;
    else if (depth === bodyDepth && t.kind === 'word' && t.text === 'return') {
      candidate = t.at;
      terminated = false;
      prev = t;
      continue;
    } else if (depth === bodyDepth && t.kind === 'punct' && t.text === ';') {
      if (candidate !== undefined) terminated = true;
      prev = t;
      continue;
    }
    if (terminated) {
      candidate = undefined;
      terminated = false;
    }
    prev = t;
  }
  return candidate;
}
