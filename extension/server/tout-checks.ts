/**
 * Static Tout checks on wrapper calls, with the runtime's wording: an invalid Tout (as
 * runtime/tout/tout.ts throws it), a func whose parameter count differs from inp (as runtime/invocation/wrap.ts
 * throws it), and return values whose count or dtype differs from Tout (TensorFlow's
 * InvalidArgumentError text, as runtime/tout/outputs.ts raises it), each with a hint.
 */
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { DiagnosticSeverity, type Diagnostic, type DiagnosticRelatedInformation } from 'vscode-languageserver';
import { parseDType, type TfDType } from '../../runtime/dtypes.js';
import { invalidToutMessage } from '../../runtime/tout/tout.js';
import type { CallbackKind } from '../../runtime/events.js';
import { conversionMessage, judgeDType } from '../../runtime/tout/dtype-rules.js';
import {
  article,
  countMismatchLine,
  dtypeFix,
  dtypeMismatchLine,
  notATensorMessage,
  notConvertibleLine,
  outputLead,
} from '../../runtime/tout/tout-messages.js';
import { callbackFacts, inlineFacts, type ReturnedItem, type ReturnShape, type ReturnSite } from './callback-returns.js';
import { rangeOf } from './positions.js';
import { callbackLabel, stringValue, unwrap, type WrapperCall } from './wrapper-calls.js';

export const SOURCE = 'tfjs-callbacks';
/** For callbacks with neither a `name` nor a function name: at run time they get a pyfunc_N token. */
const ANONYMOUS = 'the callback';

/** Tout as written: one dtype or a list; entries whose spelling the code does not show are undefined. */
export interface ToutLiteral {
  readonly single: boolean;
  readonly entries: readonly { readonly spelling?: string; readonly node: ts.Node }[];
}

/** Without `checker` (the program's type-check budget is spent) only the checks that need no types. */
export function checkWrapperCall(call: WrapperCall, sf: ts.SourceFile, checker: ts.TypeChecker | undefined): Diagnostic[] {
  const name = callbackLabel(call) ?? ANONYMOUS;
  const diagnostics: Diagnostic[] = [];
  const tout = call.tout && readTout(call.tout, checker);
  const invalid = tout ? invalidTout(tout, name, sf) : [];
  diagnostics.push(...invalid);
  if (!call.func) return diagnostics;
  const facts = checker ? callbackFacts(call.func, checker) : inlineFacts(call.func);
  const arity = checkArity(call, facts.length, name, sf);
  if (arity) diagnostics.push(arity);
  if (!tout || invalid.length > 0 || tout.entries.some((e) => e.spelling === undefined)) return diagnostics;
  const dtypes = tout.entries.map((e) => parseDType(e.spelling)!);
  const seen = new Set<string>();
  for (const site of facts.returns) {
    for (const problem of checkReturn(site.shape, tout.single, dtypes, name, call.kind)) {
      const { node, related } = placement(call, site, sf);
      const key = `${node.pos}:${problem.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      diagnostics.push({
        severity: problem.code === 'tout-conversion' ? DiagnosticSeverity.Warning : DiagnosticSeverity.Error,
        range: rangeOf(node, sf),
        message: problem.message,
        source: SOURCE,
        code: problem.code,
        ...(related ? { relatedInformation: [related] } : {}),
      });
    }
  }
  return diagnostics;
}

export function readTout(expr: ts.Expression, checker: ts.TypeChecker | undefined): ToutLiteral | undefined {
  const e = unwrap(expr);
  const literal = stringValue(e);
  if (literal !== undefined) return { single: true, entries: [{ spelling: literal, node: e }] };
  if (ts.isArrayLiteralExpression(e)) {
    if (e.elements.some((el) => ts.isSpreadElement(el))) return undefined;
    return { single: false, entries: e.elements.map((el) => ({ spelling: stringValue(unwrap(el)) ?? literalOfType(el, checker), node: el })) };
  }
  if (!checker) return undefined;
  // A constant: its literal type ('float32', or a readonly tuple of them).
  const type = checker.getTypeAtLocation(e);
  if (type.isStringLiteral()) return { single: true, entries: [{ spelling: type.value, node: e }] };
  if (checker.isTupleType(type)) {
    const items = checker.getTypeArguments(type as ts.TypeReference);
    return { single: false, entries: items.map((t) => ({ ...(t.isStringLiteral() ? { spelling: t.value } : {}), node: e })) };
  }
  return undefined;
}

function literalOfType(el: ts.Expression, checker: ts.TypeChecker | undefined): string | undefined {
  const type = checker?.getTypeAtLocation(el);
  return type?.isStringLiteral() ? type.value : undefined;
}

function invalidTout(tout: ToutLiteral, name: string, sf: ts.SourceFile): Diagnostic[] {
  const out: Diagnostic[] = [];
  tout.entries.forEach((entry, i) => {
    if (entry.spelling === undefined || parseDType(entry.spelling) !== undefined) return;
    out.push({
      severity: DiagnosticSeverity.Error,
      range: rangeOf(entry.node, sf),
      message: invalidToutMessage(entry.spelling, tout.single ? 'Tout' : `Tout[${i}]`, name),
      source: SOURCE,
      code: 'tout-invalid',
    });
  });
  return out;
}

function checkArity(call: WrapperCall, length: number | undefined, name: string, sf: ts.SourceFile): Diagnostic | undefined {
  const inp = call.inp && unwrap(call.inp);
  if (length === undefined || length === 0 || !inp || !ts.isArrayLiteralExpression(inp)) return undefined;
  if (inp.elements.some((el) => ts.isSpreadElement(el))) return undefined;
  const count = inp.elements.length;
  if (count === length) return undefined;
  const func = unwrap(call.func!);
  const range =
    ts.isArrowFunction(func) || ts.isFunctionExpression(func)
      ? { start: sf.getLineAndCharacterOfPosition(func.getStart(sf)), end: sf.getLineAndCharacterOfPosition(func.parameters.end) }
      : rangeOf(func, sf);
  return {
    severity: DiagnosticSeverity.Error,
    range,
    message:
      `'${name}' takes ${length} argument${length === 1 ? '' : 's'} but inp has ${count} tensor${count === 1 ? '' : 's'}: ` +
      `func must take as many arguments as there are tensors in inp.`,
    source: SOURCE,
    code: 'arity',
  };
}

/**
 * The values a return gives, as runtime/tout/outputs.ts's returnedList splits them: a list is the
 * list of outputs, except that for a single-dtype Tout an array of plain numbers is one value.
 * undefined: the count cannot be told from the types.
 */
export function returnedValues(shape: ReturnShape, single: boolean): readonly ReturnedItem[] | undefined {
  switch (shape.kind) {
    case 'nothing':
      return [];
    case 'one':
      return [shape.item];
    case 'list':
      if (!single || shape.items.some((i) => i.valueObject === true)) return shape.items;
      return shape.items.every((i) => i.valueObject === false) ? [{ describe: 'nested array', valueObject: false }] : undefined;
    case 'array':
      return single && shape.element.valueObject === false ? [{ describe: 'nested array', valueObject: false }] : undefined;
    default:
      return undefined;
  }
}

export interface ReturnProblem {
  /** 'tout-conversion' is a warning: py_function converts the value, as TensorFlow does. */
  readonly code: 'tout-count' | 'tout-dtype' | 'tout-value' | 'tout-conversion';
  readonly message: string;
}

/**
 * TensorFlow's messages for one return site, each followed by a line saying what to do. The
 * dtype rule is the runtime's own (judgeDType): numpy_function is strict, py_function converts
 * arrays (a warning), and what TF.js holds a dtype as (Float32Array for float64) passes.
 */
export function checkReturn(shape: ReturnShape, single: boolean, dtypes: readonly TfDType[], name: string, kind: CallbackKind): ReturnProblem[] {
  const values = returnedValues(shape, single);
  if (!values) return [];
  if (values.length !== dtypes.length) return [{ code: 'tout-count', message: countMessage(values, single, dtypes, name) }];
  const problems: ReturnProblem[] = [];
  values.forEach((value, i) => {
    const lead = outputLead(i, name);
    const expected = dtypes[i]!;
    if (value.problem) {
      problems.push({ code: 'tout-value', message: notATensorMessage(lead, value.problem) });
      return;
    }
    if (!value.dtype) return;
    const verdict = judgeDType(kind, value.dtype, expected, value.describe === 'Tensor' ? 'tensor' : value.valueObject ? 'array' : 'literal');
    if (verdict === 'convert') problems.push({ code: 'tout-conversion', message: conversionMessage(i, value.describe, value.dtype, expected) });
    else if (verdict === 'mismatch' && kind === 'py_function') {
      const first = notConvertibleLine(`${article(value.describe)} ${value.describe}`, expected);
      problems.push({ code: 'tout-dtype', message: `${first}\n  ${dtypeHint(value, expected)}` });
    } else if (verdict === 'mismatch') {
      problems.push({ code: 'tout-dtype', message: `${dtypeMismatchLine(lead, value.dtype, expected)}\n  ${dtypeHint(value, expected)}` });
    }
  });
  return problems;
}

function countMessage(values: readonly ReturnedItem[], single: boolean, dtypes: readonly TfDType[], name: string): string {
  const first = countMismatchLine(name, values.length, dtypes.length);
  const declared = single ? `Tout '${dtypes[0]}'` : `Tout [${dtypes.map((d) => `'${d}'`).join(', ')}]`;
  if (values.length === 0) {
    const fix = 'return the outputs, or use Tout [] for a callback that returns nothing.';
    return `${first}\n  The callback returns nothing but ${declared} declares ${dtypes.length}: ${fix}`;
  }
  const what = values.map((v) => v.describe).join(', ');
  const listNote = !single && values.length > 1 ? ' With a list Tout, a returned array is the list of outputs: return [value] for one array output.' : '';
  const singleNote = single && values.length > 1 ? ` For several outputs declare a list Tout of ${values.length} dtypes.` : '';
  const returned = `The callback returns ${values.length} value${values.length === 1 ? '' : 's'} (${what}); ${declared} declares ${dtypes.length}.`;
  return `${first}\n  ${returned} Return exactly one value per Tout entry (a list for several).${singleNote}${listNote}`;
}

/** What the static check knows of the value (no shape), then the runtime's fix for the mismatch. */
function dtypeHint(value: ReturnedItem, expected: TfDType): string {
  const actual = value.dtype!;
  return `The callback returns ${article(value.describe)} ${value.describe} (dtype ${actual}). ${dtypeFix({ describe: value.describe, actual, expected })}`;
}

/**
 * Where a return problem is shown: on the return expression when the callback is written inline
 * in this file, else on the func argument, pointing to the return in the related information.
 */
function placement(call: WrapperCall, site: ReturnSite, sf: ts.SourceFile): { node: ts.Node; related?: DiagnosticRelatedInformation } {
  const func = unwrap(call.func!);
  const inline = (ts.isArrowFunction(func) || ts.isFunctionExpression(func)) && site.node.getSourceFile() === sf;
  if (inline) return { node: site.node };
  const siteFile = site.node.getSourceFile();
  return {
    node: func,
    related: {
      location: { uri: pathToFileURL(siteFile.fileName).href, range: rangeOf(site.node, siteFile) },
      message: 'returned here',
    },
  };
}
