/**
 * NaN and ±Infinity across the process boundaries. JSON has none of them: CDP's by-value results,
 * DAP's messages and a webview's postMessage all write them null, so the inspector could not tell
 * −Inf from NaN. The agent's answers carry them as NonFiniteValue (agent-protocol.ts) in the two
 * places values travel, a page's `values` and a summary's `preview`; the webview reads them back
 * (media/src/format.ts fromWire), the Variables view writes JS's words for them.
 */
/**
 * Runs in the debuggee on every by-value answer of the agent (agent-client.ts): its `values` and
 * `preview` lists, at any depth, with each non-finite number as a NonFiniteValue. Self-contained (it
 * is sent as its source). Copies what it changes: the agent's own objects (cached summaries) stay
 * as they are.
 */
export function tagNonFinite(result: unknown): unknown {
  const tag = (x: unknown) => (typeof x === 'number' && !Number.isFinite(x) ? { nonFinite: String(x) } : x);
  const walk = (v: unknown, depth: number): unknown => {
    if (v === null || typeof v !== 'object' || depth > 12) return v;
    if (Array.isArray(v)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        const w = walk(v[i], depth + 1);
        if (w !== v[i]) (copy ??= v.slice())[i] = w;
      }
      return copy ?? v;
    }
    if (Object.getPrototypeOf(v) !== Object.prototype) return v;
    let copy: Record<string, unknown> | undefined;
    for (const [key, x] of Object.entries(v)) {
      const listed = (key === 'values' || key === 'preview') && Array.isArray(x);
      const w = listed ? (x.some((n) => typeof n === 'number' && !Number.isFinite(n)) ? x.map(tag) : x) : walk(x, depth + 1);
      if (w !== x) (copy ??= { ...v })[key] = w;
    }
    return copy ?? v;
  };
  return walk(result, 0);
}
