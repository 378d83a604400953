/**
 * Every DAP request gets a response. Arguments are checked against what DAP says each request
 * needs before a handler sees them (a wrong one would otherwise throw, or worse be stored and
 * break later requests), and a handler that throws or rejects anyway answers with an error
 * response that says which request failed and why.
 */
import type { DebugProtocol } from '@vscode/debugprotocol';

type Check = (value: unknown) => boolean;

const isObject: Check = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString: Check = (v) => typeof v === 'string';
const isNumber: Check = (v) => typeof v === 'number' && Number.isFinite(v);
const isCount: Check = (v) => Number.isSafeInteger(v) && (v as number) >= 0;
const isArray: Check = (v) => Array.isArray(v);
const isInteger: Check = (v) => Number.isSafeInteger(v);
const isBoolean: Check = (v) => typeof v === 'boolean';
const isStringArray: Check = (v) => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isSide: Check = (v) => v === 'inputs' || v === 'outputs';

const KINDS = new Map<Check, string>([
  [isObject, 'an object'],
  [isString, 'a string'],
  [isNumber, 'a number'],
  [isCount, 'a whole number ≥ 0'],
  [isArray, 'a list'],
  [isInteger, 'a whole number'],
  [isBoolean, 'true or false'],
  [isStringArray, 'a list of strings'],
  [isSide, '"inputs" or "outputs"'],
]);

interface Field {
  readonly check: Check;
  readonly optional?: boolean;
}

const need = (check: Check): Field => ({ check });
const may = (check: Check): Field => ({ check, optional: true });

/** Per request, the argument fields DAP marks required (need) or typed (may). */
const ARGUMENTS: Record<string, Record<string, Field> | undefined> = {
  initialize: {},
  launch: {},
  attach: {},
  setBreakpoints: { source: need(isObject), breakpoints: may(isArray) },
  setFunctionBreakpoints: { breakpoints: need(isArray) },
  setExceptionBreakpoints: { filters: need(isStringArray) },
  stackTrace: { threadId: need(isNumber), startFrame: may(isCount), levels: may(isCount) },
  scopes: { frameId: need(isNumber) },
  variables: { variablesReference: need(isNumber), start: may(isCount), count: may(isCount) },
  evaluate: { expression: need(isString), frameId: may(isNumber), context: may(isString) },
  setVariable: { variablesReference: need(isNumber), name: need(isString), value: need(isString) },
  continue: { threadId: need(isNumber) },
  next: { threadId: need(isNumber) },
  stepIn: { threadId: need(isNumber), targetId: may(isNumber) },
  stepOut: { threadId: need(isNumber) },
  pause: { threadId: need(isNumber) },
  exceptionInfo: { threadId: need(isNumber) },
  source: { sourceReference: may(isNumber) },
  tensorData: {
    expression: may(isString),
    frameId: may(isNumber),
    invocationId: may(isInteger),
    graph: may(isString),
    node: may(isString),
    side: may(isSide),
    index: may(isCount),
    start: may(isCount),
    count: may(isCount),
  },
  tensorBytes: {
    invocationId: may(isInteger),
    graph: may(isString),
    node: may(isString),
    side: may(isSide),
    index: may(isCount),
    offset: may(isCount),
    count: may(isCount),
  },
  breakpointLocations: { source: need(isObject), line: need(isNumber), endLine: may(isNumber), column: may(isNumber), endColumn: may(isNumber) },
  stepInTargets: { frameId: need(isNumber) },
  restartFrame: { frameId: need(isNumber) },
  completions: { text: need(isString), column: need(isNumber), frameId: may(isNumber), line: may(isNumber) },
  readMemory: { memoryReference: need(isString), offset: may(isInteger), count: need(isCount) },
  dataBreakpointInfo: { name: need(isString), variablesReference: may(isNumber), frameId: may(isNumber) },
  setDataBreakpoints: { breakpoints: need(isArray) },
  graphWatch: { on: need(isBoolean) },
  nodeInfo: { graph: need(isString), node: need(isString) },
  toggleSkipFile: { path: need(isString) },
};

/** Requests that name what they read one of several ways: one of these sets of fields, whole. */
const TARGETS: Record<string, readonly (readonly string[])[] | undefined> = {
  tensorData: [['expression'], ['invocationId'], ['graph', 'node']],
  tensorBytes: [['invocationId'], ['graph', 'node']],
};

/** What is wrong with a request's arguments, or undefined when they are usable. */
export function argumentProblem(command: string, args: unknown): string | undefined {
  const fields = ARGUMENTS[command];
  if (!fields) return undefined;
  const targets = TARGETS[command];
  if (args === undefined || args === null) {
    const required = Object.entries(fields)
      .filter(([, f]) => !f.optional)
      .map(([name]) => name);
    if (targets) return `${command} needs arguments (${alternatives(targets)}); it got ${args === null ? 'null' : 'none'}`;
    if (required.length === 0 && command !== 'launch' && command !== 'attach' && command !== 'initialize') return undefined;
    return `${command} needs arguments${required.length ? ` (${required.join(', ')})` : ''}; it got ${args === null ? 'null' : 'none'}`;
  }
  if (!isObject(args)) return `${command}'s arguments must be an object, not ${describe(args)}`;
  for (const [name, field] of Object.entries(fields)) {
    const value = (args as Record<string, unknown>)[name];
    if (value === undefined && field.optional) continue;
    if (!field.check(value)) return `${command}: "${name}" must be ${KINDS.get(field.check)}, not ${describe(value)}`;
  }
  const given = args as Record<string, unknown>;
  if (targets && !targets.some((set) => set.every((name) => given[name] !== undefined))) {
    return `${command} needs ${alternatives(targets)}; it got none of them`;
  }
  return undefined;
}

/** "expression, invocationId, or graph and node". */
function alternatives(targets: readonly (readonly string[])[]): string {
  const sets = targets.map((set) => set.join(' and '));
  return sets.length > 1 ? `${sets.slice(0, -1).join(', ')}, or ${sets.at(-1)}` : sets.join('');
}

function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

/** A line as DAP clients send it (1-based): a positive whole number, or why it is not one. */
export function lineProblem(line: unknown): string | undefined {
  if (Number.isSafeInteger(line) && (line as number) >= 1) return undefined;
  return `line ${describe(line)} is not a line number (lines start at 1)`;
}

/** The message of any thrown value. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Wraps the session's request handlers (methods named `…Request` the session defines) so a
 * throw or a rejection becomes `fail(response, error)` unless the handler already responded.
 */
export function guardHandlers(
  session: object,
  names: readonly string[],
  answered: Set<number>,
  fail: (response: DebugProtocol.Response, err: unknown) => void,
): void {
  const target = session as Record<string, (...args: unknown[]) => unknown>;
  for (const name of names) {
    const handler = target[name]!.bind(session);
    // customRequest(command, response, args); every other handler takes the response first.
    const responseIndex = name === 'customRequest' ? 1 : 0;
    target[name] = (...args: unknown[]) => {
      const response = args[responseIndex] as DebugProtocol.Response;
      const onError = (err: unknown) => {
        if (!answered.has(response.request_seq)) fail(response, err);
        answered.delete(response.request_seq);
      };
      let result: unknown;
      try {
        result = handler(...args);
      } catch (err) {
        onError(err);
        return;
      }
      if (result instanceof Promise) result.then(() => answered.delete(response.request_seq), onError);
      else answered.delete(response.request_seq);
      return result;
    };
  }
}

/** The fields of `o` that are set: optional arguments passed on without an `undefined` one. */
export function pickDefined<T extends object>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}
