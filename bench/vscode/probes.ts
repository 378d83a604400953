/**
 * Timing inside the workbench page, so Playwright's polling is not measured: `arm` installs a
 * capturing listener that stamps the next key press (or mouse press) with `performance.now()`, and
 * a MutationObserver that stamps the moment each awaited DOM state first holds. The Node side arms,
 * presses the key through Playwright, then collects. Detection is "in the DOM" (the observer runs
 * after the mutation, before the next paint: at most one frame earlier than pixels on a screen).
 * A webview's content is in its own documents (iframe.webview, then its #active-frame, both of the
 * workbench's origin in code-server), which the page's observer does not see: while a condition
 * on a webview is armed the page also looks every 5 ms.
 */
import type { Page } from 'playwright-core';

/** A DOM state awaited after a trigger. */
export type Condition =
  | { kind: 'toolbarShown' }
  | { kind: 'toolbarHidden' }
  /** The toolbar was seen, then hidden: a whole session, start to end. */
  | { kind: 'sessionEnded' }
  /** The top stack frame's decoration (`codicon-debug-stackframe`) sits on this editor line. */
  | { kind: 'pausedLine'; line: number }
  /** The top-stack-frame decoration went (the program ran) and shows again, on any line of any file. */
  | { kind: 'pausedAgain' }
  /** A Variables row named `name`. */
  | { kind: 'variable'; name: string }
  /** A Variables row named `index` or `[index]` (an element of an expanded array). */
  | { kind: 'valueRow'; index: number }
  /**
   * A Tensor Inspector webview, in view, shows a stop of a live session in the callback `name`
   * (its header, summary and tensor drawn at once), other than the one it showed when armed.
   */
  | { kind: 'inspectorStop'; name: string }
  /** An error squiggle on this line of an editor (a diagnostic drawn). */
  | { kind: 'errorOnLine'; line: number };

export type Trigger = { kind: 'key'; key: string; shift?: boolean } | { kind: 'mouse' };

export interface Collected {
  /** performance.now() of the trigger in the page; undefined when it was never seen. */
  readonly t0?: number;
  /** The page's performance.timeOrigin: t0 + origin is the trigger's epoch time (for the timeline). */
  readonly origin: number;
  /** Milliseconds from the trigger to each condition; undefined for one not met in time. */
  readonly ms: (number | undefined)[];
  /** Every mouse press after the trigger's, as performance.now() (the expand's later clicks). */
  readonly presses: number[];
  readonly timedOut: boolean;
}

export function describe(c: Condition): string {
  switch (c.kind) {
    case 'toolbarShown':
      return 'the debug toolbar to show';
    case 'toolbarHidden':
      return 'the debug toolbar to hide';
    case 'sessionEnded':
      return 'the debug toolbar to show and then hide (session start to end)';
    case 'pausedLine':
      return `the top-stack-frame decoration on line ${c.line}`;
    case 'pausedAgain':
      return 'the top-stack-frame decoration to go and show again';
    case 'variable':
      return `a Variables row "${c.name}"`;
    case 'valueRow':
      return `the Variables row of element ${c.index}`;
    case 'inspectorStop':
      return `the Tensor Inspector to show a new stop in ${c.name}`;
    case 'errorOnLine':
      return `an error squiggle on line ${c.line}`;
  }
}

/** Where the top stack frame is shown: the active editor's file name and the decorated line; undefined when none is. */
export async function pausedWhere(page: Page): Promise<{ file: string; line: number } | undefined> {
  return page.evaluate(() => {
    const frame = document.querySelector('.monaco-editor .debug-top-stack-frame-line, .monaco-editor .codicon-debug-stackframe');
    if (!frame) return undefined;
    const top = frame.getBoundingClientRect().top;
    const editor = frame.closest('.monaco-editor');
    const number = Array.from(editor?.querySelectorAll('.line-numbers') ?? []).find((n) => Math.abs(n.getBoundingClientRect().top - top) < 3);
    const tab = document.querySelector('.editor-group-container.active .tab.active .label-name') ?? document.querySelector('.tab.active .label-name');
    return { file: (tab?.textContent ?? '?').trim(), line: Number(number?.textContent?.trim() ?? 0) };
  });
}

/** Installs the probe once per page (idempotent). */
export async function installProbes(page: Page): Promise<void> {
  await page.evaluate(PROBE_SOURCE);
}

/** Arms the trigger stamp and the observers; resolves at once. */
export async function arm(page: Page, trigger: Trigger, conditions: readonly Condition[], timeoutMs: number): Promise<void> {
  await page.evaluate(([t, c, ms]) => (window as unknown as { __bench: BenchProbe }).__bench.arm(t, c, ms), [trigger, conditions, timeoutMs] as const);
}

/** Waits in the page for what `arm` set up (all conditions met, or its timeout). */
export async function collect(page: Page): Promise<Collected> {
  return page.evaluate(() => (window as unknown as { __bench: BenchProbe }).__bench.collect());
}

/** Waits (in the page) for an expandable Variables row to click next on the way to the values, or for `index` to show. */
export async function nextExpandTarget(
  page: Page,
  start: string,
  index: number,
  clicked: string | undefined,
  timeoutMs: number,
): Promise<ExpandTarget | 'done'> {
  return page.evaluate(([s, i, c, ms]) => (window as unknown as { __bench: BenchProbe }).__bench.nextExpandTarget(s, i, c, ms), [
    start,
    index,
    clicked ?? null,
    timeoutMs,
  ] as const);
}

/** A row to click: its twistie's centre, its name, and performance.now() when it showed. */
export interface ExpandTarget {
  readonly x: number;
  readonly y: number;
  readonly label: string;
  readonly at: number;
}

interface BenchProbe {
  arm(trigger: Trigger, conditions: readonly Condition[], timeoutMs: number): void;
  collect(): Promise<Collected>;
  nextExpandTarget(start: string, index: number, clicked: string | null, timeoutMs: number): Promise<ExpandTarget | 'done'>;
}

/** The probe, as page source (a string, so no bundler's helpers leak into it). */
const PROBE_SOURCE = String.raw`(() => {
  if (window.__bench) return;
  const rowName = (row) => {
    const name = row.querySelector('.name');
    return (name ? name.textContent : row.textContent || '').replace(/[:=]\s*$/, '').trim();
  };
  const variableRows = () => Array.from(document.querySelectorAll('.debug-variables .monaco-list-row'));
  const visibleToolbar = () => Array.from(document.querySelectorAll('.debug-toolbar')).some((el) => el.isConnected && getComputedStyle(el).display !== 'none');
  /** The text of the stop a Tensor Inspector in view shows: null when none is in view or it shows no stop. */
  const inspectorStop = () => {
    for (const outer of document.querySelectorAll('iframe.webview.ready')) {
      if (outer.checkVisibility && !outer.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      const r = outer.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      let header = null;
      try {
        const inner = outer.contentDocument && outer.contentDocument.querySelector('#active-frame');
        header = inner && inner.contentDocument && inner.contentDocument.querySelector('.invocation-header');
      } catch {
        continue; // another origin: not ours to read
      }
      if (header) return { text: header.textContent, live: !header.querySelector('.banner.ended, .banner.stale') };
    }
    return null;
  };
  /** The line-number elements (of any editor) that read line. */
  const lineNumbers = (line) => Array.from(document.querySelectorAll('.monaco-editor .line-numbers')).filter((n) => n.textContent.trim() === String(line));
  const errorOn = (line) => {
    const numbers = lineNumbers(line);
    return Array.from(document.querySelectorAll('.monaco-editor .squiggly-error')).some((s) => {
      const r = s.getBoundingClientRect();
      return r.height > 0 && numbers.some((n) => Math.abs(n.getBoundingClientRect().top - r.top) < r.height);
    });
  };
  const pausedOn = (line) => {
    // The glyph, or the line highlight, of the top stack frame (a breakpoint's glyph may take the glyph's place).
    const frames = Array.from(document.querySelectorAll('.monaco-editor .codicon-debug-stackframe, .monaco-editor .debug-top-stack-frame-line'));
    if (frames.length === 0) return false;
    const numbers = Array.from(document.querySelectorAll('.monaco-editor .line-numbers')).filter((n) => n.textContent.trim() === String(line));
    return frames.some((f) => {
      const r = f.getBoundingClientRect();
      return numbers.some((n) => {
        const q = n.getBoundingClientRect();
        return Math.abs(q.top - r.top) < 3 && r.height > 0;
      });
    });
  };
  /** "file:line" of the top-stack-frame decoration; null when none shows. */
  const topFrameAt = () => {
    const frame = document.querySelector('.monaco-editor .debug-top-stack-frame-line, .monaco-editor .codicon-debug-stackframe');
    if (!frame) return null;
    const top = frame.getBoundingClientRect().top;
    const editor = frame.closest('.monaco-editor');
    const number = Array.from(editor ? editor.querySelectorAll('.line-numbers') : []).find((n) => Math.abs(n.getBoundingClientRect().top - top) < 3);
    const tab = document.querySelector('.editor-group-container.active .tab.active .label-name') || document.querySelector('.tab.active .label-name');
    return (tab ? tab.textContent.trim() : '?') + ':' + (number ? number.textContent.trim() : '?');
  };
  const check = (c, state) => {
    switch (c.kind) {
      case 'toolbarShown': return visibleToolbar();
      case 'toolbarHidden': return !visibleToolbar();
      case 'sessionEnded':
        if (visibleToolbar()) state.seen = true;
        return !!state.seen && !visibleToolbar();
      case 'pausedLine': return pausedOn(c.line);
      case 'pausedAgain': {
        // VS Code keeps the decoration a moment after a resume (against flicker): a stop that comes
        // sooner only moves it.
        const now = topFrameAt();
        if (state.from === undefined) state.from = now;
        if (now === null) state.gone = true;
        return now !== null && (!!state.gone || now !== state.from);
      }
      case 'variable': return variableRows().some((r) => rowName(r) === c.name);
      case 'valueRow': return variableRows().some((r) => { const n = rowName(r); return n === String(c.index) || n === '[' + c.index + ']'; });
      case 'inspectorStop': {
        const now = inspectorStop();
        return !!now && now.live && now.text.includes(c.name) && now.text !== state.from;
      }
      case 'errorOnLine': return errorOn(c.line);
    }
    return false;
  };
  /** What a condition holds against when armed (the stop the inspector shows then). */
  const initial = (c) => (c.kind === 'inspectorStop' ? { from: (inspectorStop() || { text: null }).text } : {});
  let armed;
  window.__bench = {
    arm(trigger, conditions, timeoutMs) {
      if (armed) armed.stop();
      const a = { t0: undefined, at: conditions.map(() => undefined), states: conditions.map(initial), timedOut: false, presses: [] };
      let resolve;
      a.done = new Promise((r) => (resolve = r));
      const finish = () => { a.stop(); resolve(); };
      const test = () => {
        if (a.t0 === undefined) return;
        const now = performance.now();
        conditions.forEach((c, i) => { if (a.at[i] === undefined && check(c, a.states[i])) a.at[i] = now; });
        if (a.at.every((t) => t !== undefined)) finish();
      };
      const onKey = (e) => {
        if (a.t0 !== undefined || trigger.kind !== 'key' || e.key !== trigger.key || !!e.shiftKey !== !!trigger.shift) return;
        a.t0 = performance.now();
        queueMicrotask(test);
      };
      const onMouse = () => {
        if (a.t0 !== undefined) a.presses.push(performance.now());
        if (a.t0 !== undefined || trigger.kind !== 'mouse') return;
        a.t0 = performance.now();
        queueMicrotask(test);
      };
      window.addEventListener('keydown', onKey, true);
      window.addEventListener('mousedown', onMouse, true);
      const observer = new MutationObserver(test);
      observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
      const timer = setTimeout(() => { a.timedOut = true; finish(); }, timeoutMs);
      const looking = conditions.some((c) => c.kind === 'inspectorStop') ? setInterval(test, 5) : undefined;
      a.stop = () => {
        observer.disconnect();
        clearTimeout(timer);
        clearInterval(looking);
        window.removeEventListener('keydown', onKey, true);
        window.removeEventListener('mousedown', onMouse, true);
      };
      armed = a;
    },
    async collect() {
      const a = armed;
      if (!a) throw new Error('nothing armed');
      await a.done;
      armed = undefined;
      return { t0: a.t0, origin: performance.timeOrigin, ms: a.at.map((t) => (t === undefined || a.t0 === undefined ? undefined : t - a.t0)), timedOut: a.timedOut, presses: a.presses };
    },
    nextExpandTarget(start, index, clicked, timeoutMs) {
      // The way to the values: the input row, then a range row "[0..N]" or a child named
      // values/data, until the row of element 'index' shows.
      const pick = () => {
        const rows = variableRows();
        if (rows.some((r) => { const n = rowName(r); return n === String(index) || n === '[' + index + ']'; })) return 'done';
        const collapsed = (r) => r.getAttribute('aria-expanded') === 'false';
        // The row clicked last must have opened before the next click (a second click would close it).
        if (clicked !== null && !rows.some((r) => rowName(r) === clicked && r.getAttribute('aria-expanded') === 'true')) return undefined;
        const ranges = rows.filter((r) => /^\[0\s*(\.\.|…)/.test(rowName(r)) && collapsed(r));
        const named = rows.filter((r) => collapsed(r) && ['values', 'data'].includes(rowName(r)));
        const first = rows.filter((r) => collapsed(r) && rowName(r) === start);
        const target = ranges[0] || named[0] || first[0];
        if (!target) return undefined;
        const twistie = target.querySelector('.monaco-tl-twistie') || target;
        const r = twistie.getBoundingClientRect();
        if (r.height === 0) return undefined;
        return { x: r.left + r.width / 2, y: r.top + r.height / 2, label: rowName(target), at: performance.now() };
      };
      return new Promise((resolve, reject) => {
        const found = pick();
        if (found) return resolve(found);
        const observer = new MutationObserver(() => {
          const f = pick();
          if (f) { observer.disconnect(); clearTimeout(timer); resolve(f); }
        });
        observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
        const timer = setTimeout(() => { observer.disconnect(); reject(new Error('timed out after ' + timeoutMs + ' ms waiting for a Variables row to expand towards element ' + index + '; rows: ' + variableRows().map(rowName).slice(0, 30).join(' | '))); }, timeoutMs);
      });
    },
  };
})()`;
