/**
 * Finds the runtime's wrapper calls in a source file from its syntax alone: `pyFunction(…)`,
 * `numpyFunction(…)` and `compat.v1.pyFunc(…)` / `compat.v1.py_func(…)`, through named imports
 * (also renamed), namespace imports and `require`. No type checker: code lenses, the callbacks
 * list and hovers use this without waiting for types.
 */
import ts from 'typescript';
import type { CallbackKind } from '../../runtime/events.js';

export const RUNTIME_MODULE = 'tfjs-callback-debugger/runtime';

export type WrapperApi = 'pyFunction' | 'numpyFunction' | 'compat.v1.pyFunc';

export interface WrapperCall {
  readonly api: WrapperApi;
  readonly kind: CallbackKind;
  readonly call: ts.CallExpression;
  /** `numpyFunction`, `rt.pyFunction`, `compat.v1.pyFunc`: what the hover and lens sit on. */
  readonly callee: ts.Expression;
  readonly func?: ts.Expression;
  readonly inp?: ts.Expression;
  readonly tout?: ts.Expression;
  /** The `name` option (or py_func's 5th argument) when it is a string literal. */
  readonly givenName?: string;
  /** The JS function's own name (`func.name` at run time), when the code shows it. */
  readonly functionName?: string;
  /** 0-based line V8 reports for the call: the line of the callee's last name. */
  readonly line: number;
}

/** Cheap pre-check on the text, before parsing: does the file mention the runtime at all? */
export function mentionsRuntime(text: string): boolean {
  return text.includes(RUNTIME_MODULE);
}

/** True when the file imports (or requires) the runtime: a graph program. */
export function importsRuntime(sf: ts.SourceFile): boolean {
  return readBindings(sf).importsRuntime;
}

/** The name diagnostics and lenses use: the `name` option, else the function's name. */
export function callbackLabel(call: WrapperCall): string | undefined {
  return call.givenName ?? call.functionName;
}

export function findWrapperCalls(sf: ts.SourceFile): WrapperCall[] {
  const bindings = readBindings(sf);
  if (!bindings.importsRuntime) return [];
  const found: WrapperCall[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const api = apiOf(node.expression, bindings);
      if (api) found.push(describeCall(node, api, bindings, sf));
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

interface Bindings {
  importsRuntime: boolean;
  /** Local names of `pyFunction` / `numpyFunction` / `compat`. */
  readonly named: Map<string, string>;
  /** Local names bound to the whole module (`import * as rt`, `const rt = require(…)`). */
  readonly namespaces: Set<string>;
  /** Every renamed import in the file: local name → exported name (a function's own name). */
  readonly renamed: Map<string, string>;
}

function readBindings(sf: ts.SourceFile): Bindings {
  const bindings: Bindings = { importsRuntime: false, named: new Map(), namespaces: new Set(), renamed: new Map() };
  for (const statement of sf.statements) {
    if (ts.isImportDeclaration(statement)) readImport(statement, bindings);
    else if (ts.isVariableStatement(statement)) {
      for (const decl of statement.declarationList.declarations) readRequire(decl, bindings);
    }
  }
  return bindings;
}

function readImport(statement: ts.ImportDeclaration, bindings: Bindings): void {
  const clause = statement.importClause;
  const named = clause?.namedBindings;
  if (named && ts.isNamedImports(named)) {
    for (const element of named.elements) {
      if (element.propertyName) bindings.renamed.set(element.name.text, element.propertyName.text);
    }
  }
  if (!ts.isStringLiteral(statement.moduleSpecifier) || statement.moduleSpecifier.text !== RUNTIME_MODULE) return;
  bindings.importsRuntime = true;
  if (!clause || clause.isTypeOnly || !named) return;
  if (ts.isNamespaceImport(named)) bindings.namespaces.add(named.name.text);
  else {
    for (const element of named.elements) {
      if (!element.isTypeOnly) bindings.named.set(element.name.text, (element.propertyName ?? element.name).text);
    }
  }
}

/** `const { numpyFunction } = require('…')`, `const rt = await import('…')`. */
function readRequire(decl: ts.VariableDeclaration, bindings: Bindings): void {
  let init = decl.initializer;
  if (init && ts.isAwaitExpression(init)) init = init.expression;
  if (!init || !ts.isCallExpression(init)) return;
  const isLoad = (ts.isIdentifier(init.expression) && init.expression.text === 'require') || init.expression.kind === ts.SyntaxKind.ImportKeyword;
  const [arg] = init.arguments;
  if (!isLoad || !arg || !ts.isStringLiteral(arg) || arg.text !== RUNTIME_MODULE) return;
  bindings.importsRuntime = true;
  if (ts.isIdentifier(decl.name)) bindings.namespaces.add(decl.name.text);
  else if (ts.isObjectBindingPattern(decl.name)) {
    for (const element of decl.name.elements) {
      const exported = element.propertyName && ts.isIdentifier(element.propertyName) ? element.propertyName.text : undefined;
      if (ts.isIdentifier(element.name)) bindings.named.set(element.name.text, exported ?? element.name.text);
    }
  }
}

/** `a.b.c` → ['a', 'b', 'c'], or undefined for anything but identifiers and property names. */
function nameParts(expr: ts.Expression): string[] | undefined {
  if (ts.isIdentifier(expr)) return [expr.text];
  if (ts.isPropertyAccessExpression(expr) && ts.isIdentifier(expr.name)) {
    const left = nameParts(expr.expression);
    return left ? [...left, expr.name.text] : undefined;
  }
  if (ts.isParenthesizedExpression(expr) || ts.isNonNullExpression(expr)) return nameParts(expr.expression);
  return undefined;
}

function apiOf(callee: ts.Expression, bindings: Bindings): WrapperApi | undefined {
  const parts = nameParts(callee);
  if (!parts) return undefined;
  const [head, ...rest] = parts;
  let path: string[];
  if (bindings.namespaces.has(head!)) path = rest;
  else if (bindings.named.has(head!)) path = [bindings.named.get(head!)!, ...rest];
  else return undefined;
  const joined = path.join('.');
  if (joined === 'pyFunction' || joined === 'numpyFunction') return joined;
  if (joined === 'compat.v1.pyFunc' || joined === 'compat.v1.py_func') return 'compat.v1.pyFunc';
  return undefined;
}

const KIND: Record<WrapperApi, CallbackKind> = { pyFunction: 'py_function', numpyFunction: 'numpy_function', 'compat.v1.pyFunc': 'py_func' };

function describeCall(call: ts.CallExpression, api: WrapperApi, bindings: Bindings, sf: ts.SourceFile): WrapperCall {
  const [func, inp, tout, fourth, fifth] = call.arguments;
  const givenName = api === 'compat.v1.pyFunc' ? stringValue(fifth) : nameOption(fourth);
  const functionName = func ? functionNameOf(func, bindings) : undefined;
  const nameNode = ts.isPropertyAccessExpression(call.expression) ? call.expression.name : call.expression;
  return {
    api,
    kind: KIND[api],
    call,
    callee: call.expression,
    ...(func ? { func } : {}),
    ...(inp ? { inp } : {}),
    ...(tout ? { tout } : {}),
    ...(givenName !== undefined ? { givenName } : {}),
    ...(functionName !== undefined ? { functionName } : {}),
    line: sf.getLineAndCharacterOfPosition(nameNode.getStart(sf)).line,
  };
}

export function stringValue(expr: ts.Expression | undefined): string | undefined {
  if (!expr) return undefined;
  if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) return expr.text;
  return undefined;
}

function nameOption(options: ts.Expression | undefined): string | undefined {
  if (!options || !ts.isObjectLiteralExpression(options)) return undefined;
  for (const prop of options.properties) {
    if (ts.isPropertyAssignment(prop) && propertyName(prop.name) === 'name') return stringValue(prop.initializer);
  }
  return undefined;
}

export function propertyName(name: ts.PropertyName): string | undefined {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name)) return name.text;
  if (ts.isComputedPropertyName(name)) return stringValue(name.expression);
  return undefined;
}

/** What `func.name` will be: the identifier (or the name it was imported under), or a named function expression's name. */
function functionNameOf(func: ts.Expression, bindings: Bindings): string | undefined {
  const inner = unwrap(func);
  if (ts.isIdentifier(inner)) return bindings.renamed.get(inner.text) ?? inner.text;
  if (ts.isPropertyAccessExpression(inner)) return inner.name.text;
  if (ts.isFunctionExpression(inner)) return inner.name?.text;
  return undefined;
}

/** Strips parentheses, `!`, `as`, `satisfies` and type assertions. */
export function unwrap(expr: ts.Expression): ts.Expression {
  let e = expr;
  while (
    ts.isParenthesizedExpression(e) ||
    ts.isNonNullExpression(e) ||
    ts.isAsExpression(e) ||
    ts.isSatisfiesExpression(e) ||
    ts.isTypeAssertionExpression(e)
  ) {
    e = e.expression;
  }
  return e;
}
