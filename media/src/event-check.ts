/**
 * An invocation event as the page may trust it. The event comes from the debuggee through the
 * adapter (and back from saved state after a reload): a field may be missing, of the wrong type,
 * NaN, or megabytes long. Each one is replaced by something the renderer can show, and a line
 * says which value could not be shown and why, so one bad field never blanks the panel.
 */
import type { InvocationSnapshot, TensorCallbackEvent, TensorInfo, WireValue } from './protocol.js';

/** Longest text kept from one field: messages and names past it are cut, and say so. */
export const MAX_TEXT = 4000;
/** Most inputs, outputs or dims read from one event. */
const MAX_ITEMS = 1000;

export interface CheckedEvent {
  readonly event: TensorCallbackEvent;
  /** "<field>: this value could not be shown: <why>" (or cut: how), one per value not shown as sent. */
  readonly problems: readonly string[];
}

export function checkEvent(raw: unknown): CheckedEvent {
  const problems: string[] = [];
  const r = new Reader(problems);
  const e = r.object(raw, 'event') ?? {};
  const inv = r.object(e.invocation, 'invocation') ?? {};
  const callback = r.object(inv.callback, 'invocation.callback') ?? {};
  const invocation: InvocationSnapshot = {
    id: r.integer(inv.id, 'invocation.id') ?? 0,
    callback: {
      name: r.text(callback.name, 'callback name') ?? '(unnamed)',
      token: r.text(callback.token, 'callback token') ?? '',
      kind: r.text(callback.kind, 'callback kind') ?? '?',
      stateful: callback.stateful === true,
      ...optional('functionName', r.text(callback.functionName, 'callback function name', true)),
    },
    op: r.text(inv.op, 'op') ?? '?',
    ...optional('graph', r.text(inv.graph, 'graph', true)),
    ...optional('node', r.text(inv.node, 'node', true)),
    Tout: r.texts(inv.Tout, 'Tout') ?? [],
    ...optional('Tin', inv.Tin === undefined ? undefined : r.texts(inv.Tin, 'Tin')),
    parameterNames: r.texts(inv.parameterNames, 'parameter names') ?? [],
    ...optional('callSite', callSite(r, inv.callSite)),
    phase: inv.phase === 'running' ? 'running' : 'returned',
    ...optional('toutCheck', toutCheck(r, inv.toutCheck)),
    ...optional('error', error(r, inv.error)),
  };
  if (inv.phase !== 'running' && inv.phase !== 'returned') r.fail('phase', `expected "running" or "returned", got ${describe(inv.phase)}; shown as returned`);
  return {
    event: {
      reason: r.text(e.reason, 'reason') ?? '?',
      description: r.text(e.description, 'description') ?? '',
      invocation,
      inputs: r.list(e.inputs, 'inputs', (v, where) => tensorInfo(r, v, where)),
      outputs: r.list(e.outputs, 'outputs', (v, where) => tensorInfo(r, v, where)),
    },
    problems,
  };
}

export type Obj = Record<string, unknown>;

export function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

export class Reader {
  constructor(private readonly problems: string[]) {}

  fail(where: string, why: string): undefined {
    this.problems.push(`${where}: this value could not be shown: ${why}`);
    return undefined;
  }

  object(v: unknown, where: string): Obj | undefined {
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Obj;
    return this.fail(where, `expected an object, got ${describe(v)}`);
  }

  /** A string, cut to MAX_TEXT. Absent optional fields are no problem. */
  text(v: unknown, where: string, optionalField = false): string | undefined {
    if (v === undefined && optionalField) return undefined;
    if (typeof v !== 'string') return this.fail(where, `expected text, got ${describe(v)}`);
    if (v.length <= MAX_TEXT) return v;
    this.problems.push(`${where}: ${v.length.toLocaleString('en-US')} characters long, cut to ${MAX_TEXT.toLocaleString('en-US')}`);
    return `${v.slice(0, MAX_TEXT - 1)}…`; // within MAX_TEXT: checked again after a reload, it passes
  }

  texts(v: unknown, where: string): string[] | undefined {
    if (!Array.isArray(v)) return this.fail(where, `expected a list of text, got ${describe(v)}`);
    return this.list(v, where, (item, at) => this.text(item, at) ?? '?');
  }

  integer(v: unknown, where: string): number | undefined {
    if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
    return this.fail(where, `expected a whole number, got ${describe(v)}`);
  }

  /** A finite number or nothing: NaN where a statistic is expected cannot be shown as one. */
  number(v: unknown, where: string): number | undefined {
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'number' && !Number.isNaN(v)) return v;
    return this.fail(where, `expected a number, got ${describe(v)}`);
  }

  list<T>(v: unknown, where: string, item: (value: unknown, where: string) => T): T[] {
    if (!Array.isArray(v)) {
      this.fail(where, `expected a list, got ${describe(v)}`);
      return [];
    }
    if (v.length > MAX_ITEMS) this.problems.push(`${where}: ${v.length} items, only the first ${MAX_ITEMS} are shown`);
    return v.slice(0, MAX_ITEMS).map((value, i) => item(value, `${where}[${i}]`));
  }
}

/**
 * One input or output. null stays null (not a tensor); a summary without a usable kind, dtype,
 * shape or size becomes an opaque entry, so its row says it has no values instead of failing.
 */
export function tensorInfo(r: Reader, v: unknown, where: string): TensorInfo | null {
  if (v === null) return null;
  const o = r.object(v, where);
  if (!o) return { kind: 'value that could not be shown', dtype: '', shape: [], size: 0, disposed: false, opaque: true };
  const kind = r.text(o.kind, `${where}.kind`) ?? '?';
  if (o.opaque === true) return { kind, dtype: '', shape: [], size: 0, disposed: o.disposed === true, opaque: true };
  const dtype = r.text(o.dtype, `${where}.dtype`);
  const shape = shapeOf(r, o.shape, `${where}.shape`);
  const size =
    typeof o.size === 'number' && Number.isSafeInteger(o.size) && o.size >= 0 ? o.size : r.fail(`${where}.size`, `expected a count, got ${describe(o.size)}`);
  if (dtype === undefined || shape === undefined || size === undefined) {
    return { kind: `${kind} (its summary could not be shown)`, dtype: '', shape: [], size: 0, disposed: false, opaque: true };
  }
  if (shape.reduce((a, b) => a * b, 1) !== size) r.fail(`${where}.size`, `${size} does not match shape [${shape.join(', ')}]`);
  const stat = (key: string) => r.number(o[key], `${where}.${key}`);
  const count = (key: string) => {
    const n = o[key];
    if (n === undefined || n === null) return undefined;
    return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : r.fail(`${where}.${key}`, `expected a count, got ${describe(n)}`);
  };
  // Kept as sent, NonFiniteValue included (read by tensor-data.ts), so saved state keeps it too; anything else is a NaN.
  const preview = Array.isArray(o.preview) ? o.preview.slice(0, size).map(wireValue) : undefined;
  const info: TensorInfo = {
    kind,
    dtype,
    shape,
    size,
    disposed: o.disposed === true,
    ...optional('min', stat('min')),
    ...optional('max', stat('max')),
    ...optional('mean', stat('mean')),
    ...optional('nanCount', count('nanCount')),
    ...optional('infCount', count('infCount')),
    ...optional('negInfCount', count('negInfCount')),
    ...optional('zeroCount', count('zeroCount')),
    ...optional('exact', typeof o.exact === 'boolean' ? o.exact : undefined),
    ...optional('counted', count('counted')),
    ...optional('preview', preview),
  };
  return info;
}

type NonFiniteText = Extract<WireValue, object>['nonFinite'];
const NON_FINITE_TEXTS: readonly NonFiniteText[] = ['NaN', 'Infinity', '-Infinity'];

function wireValue(x: unknown): WireValue {
  if (typeof x === 'number' || typeof x === 'boolean' || typeof x === 'string') return x;
  const text = x && typeof x === 'object' ? (x as { nonFinite?: unknown }).nonFinite : undefined;
  return { nonFinite: NON_FINITE_TEXTS.find((t) => t === text) ?? 'NaN' };
}

function shapeOf(r: Reader, v: unknown, where: string): number[] | undefined {
  if (!Array.isArray(v)) return r.fail(where, `expected a list of sizes, got ${describe(v)}`);
  if (v.length > 64) return r.fail(where, `${v.length} dimensions, more than the 64 shown`);
  if (!v.every((d) => typeof d === 'number' && Number.isSafeInteger(d) && d >= 0))
    return r.fail(where, `expected sizes (whole numbers ≥ 0), got [${v.map(describe).join(', ')}]`);
  return v as number[];
}

function callSite(r: Reader, v: unknown): InvocationSnapshot['callSite'] {
  if (v === undefined) return undefined;
  const o = r.object(v, 'call site');
  const file = o && r.text(o.file, 'call site file');
  const line = o && r.integer(o.line, 'call site line');
  if (!o || file === undefined || line === undefined) return undefined;
  return { file, line, column: typeof o.column === 'number' && Number.isSafeInteger(o.column) ? o.column : 0 };
}

function toutCheck(r: Reader, v: unknown): InvocationSnapshot['toutCheck'] {
  if (v === undefined) return undefined;
  const o = r.object(v, 'Tout check');
  if (!o) return undefined;
  // The verdict is the runtime's: one that does not say ok or not is not shown, never guessed.
  if (typeof o.ok !== 'boolean') return r.fail('Tout check', `expected ok true or false, got ${describe(o.ok)}; the verdict is not shown`);
  const mismatches = r.list(o.mismatches ?? [], 'Tout check mismatches', (m, where) => {
    const mo = r.object(m, where) ?? {};
    const index = mo.index === undefined ? undefined : r.integer(mo.index, `${where}.index`);
    return {
      message: r.text(mo.message, `${where}.message`) ?? '(no message)',
      short: r.text(mo.short, `${where}.short`) ?? '(no message)',
      problem: typeof mo.problem === 'string' ? mo.problem : '?',
      ...optional('index', index),
    };
  });
  const narrowed = r.list(o.narrowed ?? [], 'Tout check narrowed', (n, where) => {
    const no = r.object(n, where) ?? {};
    return {
      index: r.integer(no.index, `${where}.index`) ?? -1,
      declared: r.text(no.declared, `${where}.declared`) ?? '?',
      storedAs: r.text(no.storedAs, `${where}.storedAs`) ?? '?',
    };
  });
  const conversions =
    o.conversions === undefined
      ? undefined
      : r.list(o.conversions, 'Tout check conversions', (c, where) => {
          const co = r.object(c, where) ?? {};
          return {
            index: r.integer(co.index, `${where}.index`) ?? -1,
            from: r.text(co.from, `${where}.from`) ?? '?',
            fromDType: r.text(co.fromDType, `${where}.fromDType`) ?? '?',
            to: r.text(co.to, `${where}.to`) ?? '?',
            message: r.text(co.message, `${where}.message`) ?? '',
          };
        });
  return { ok: o.ok, mismatches, narrowed, ...optional('conversions', conversions) };
}

function error(r: Reader, v: unknown): InvocationSnapshot['error'] {
  if (v === undefined || v === null) return undefined;
  const o = r.object(v, 'error');
  if (!o) return { name: 'Error', message: '(the error could not be shown)' };
  return { name: r.text(o.name, 'error name') ?? 'Error', message: r.text(o.message, 'error message') ?? '' };
}

/** A value's kind for a message, never the value itself (it may be huge). */
export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `a list of ${v.length}`;
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : Number.isFinite(v) ? `the number ${v}` : String(v);
  if (typeof v === 'string') return v.length > 40 ? `text of ${v.length.toLocaleString('en-US')} characters` : JSON.stringify(v);
  return typeof v === 'object' ? 'an object' : typeof v;
}
