/**
 * What a wrapped callback returns, from the TS type checker: for each return expression (or the
 * declared return type) the values it gives and, where the type shows it, their dtype, as
 * runtime/tout/outputs.ts classifies values at run time (Float64Array is float64, a number takes the
 * dtype Tout declares, a Tensor or NdArray has a dtype only known at run time).
 */
import ts from 'typescript';
import { dtypeOfArrayName, type TfDType } from '../../runtime/dtypes.js';
import { unwrap } from './wrapper-calls.js';

/** One returned value. */
export interface ReturnedItem {
  /** Its dtype when the type fixes it (typed arrays, booleans, strings). */
  readonly dtype?: TfDType;
  /** "Float64Array", "NdArray", "Tensor", "number", "nested array", … */
  readonly describe: string;
  /** A Tensor, NdArray or typed array (one output each, also inside a list); undefined: cannot tell. */
  readonly valueObject: boolean | undefined;
  /** Why it cannot be an output at all (a Promise). */
  readonly problem?: string;
}

/** What one return expression (or the declared return type) gives. */
export type ReturnShape =
  | { readonly kind: 'unknown' }
  | { readonly kind: 'nothing' }
  | { readonly kind: 'one'; readonly item: ReturnedItem }
  /** A tuple type or an array literal: a fixed number of items. */
  | { readonly kind: 'list'; readonly items: readonly ReturnedItem[] }
  /** An array type of unknown length. */
  | { readonly kind: 'array'; readonly element: ReturnedItem };

export interface ReturnSite {
  readonly shape: ReturnShape;
  /** The return expression (or return type annotation, or function) it came from. */
  readonly node: ts.Node;
}

export interface CallbackFacts {
  /** The function's declaration, when found (inline, or the declaration of a referenced one). */
  readonly declaration?: ts.SignatureDeclaration;
  /** `func.length`: parameters before the first one with a default or a rest parameter. */
  readonly length?: number;
  readonly returns: readonly ReturnSite[];
}

const TENSORS = new Set(['Tensor', 'Variable', 'NdArray']);
const PROMISE_PROBLEM =
  'the callback returns a Promise. Wrapped callbacks run synchronously, as in TensorFlow; compute the value before returning ' +
  '(async callbacks are supported for graph model nodes run with executeAsync)';
const UNKNOWN: ReturnShape = { kind: 'unknown' };

export function callbackFacts(func: ts.Expression, checker: ts.TypeChecker): CallbackFacts {
  const declaration = declarationOf(func, checker);
  if (!declaration) {
    // Anything callable: use its one call signature.
    const signatures = checker.getSignaturesOfType(checker.getTypeAtLocation(func), ts.SignatureKind.Call);
    if (signatures.length !== 1) return { returns: [] };
    const sig = signatures[0]!;
    const length = sig.declaration && !ts.isJSDocSignature(sig.declaration) ? functionLength(sig.declaration) : undefined;
    return { ...(length !== undefined ? { length } : {}), returns: [{ shape: shapeOfType(checker.getReturnTypeOfSignature(sig), checker), node: func }] };
  }
  return { declaration, length: functionLength(declaration), returns: returnSites(declaration, checker) };
}

/** What the syntax alone tells of an inline callback: its parameter count, not its returns. */
export function inlineFacts(func: ts.Expression): CallbackFacts {
  const inner = unwrap(func);
  if (!ts.isArrowFunction(inner) && !ts.isFunctionExpression(inner)) return { returns: [] };
  return { declaration: inner, length: functionLength(inner), returns: [] };
}

function declarationOf(func: ts.Expression, checker: ts.TypeChecker): ts.SignatureDeclaration | undefined {
  const inner = unwrap(func);
  if (ts.isArrowFunction(inner) || ts.isFunctionExpression(inner)) return inner;
  if (!ts.isIdentifier(inner) && !ts.isPropertyAccessExpression(inner)) return undefined;
  let symbol = checker.getSymbolAtLocation(inner);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const decl = symbol?.valueDeclaration ?? symbol?.declarations?.[0];
  if (!decl) return undefined;
  if (ts.isFunctionDeclaration(decl) || ts.isMethodDeclaration(decl)) return decl.body ? decl : undefined;
  const init = ts.isVariableDeclaration(decl) || ts.isPropertyAssignment(decl) || ts.isPropertyDeclaration(decl) ? decl.initializer : undefined;
  // `const f = …` only when f is never reassigned.
  if (ts.isVariableDeclaration(decl) && !(ts.getCombinedNodeFlags(decl) & ts.NodeFlags.Const)) return undefined;
  const fn = init && unwrap(init);
  return fn && (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) ? fn : undefined;
}

function functionLength(decl: ts.SignatureDeclaration): number {
  let length = 0;
  for (const p of decl.parameters) {
    if (ts.isIdentifier(p.name) && p.name.text === 'this') continue;
    if (p.initializer || p.dotDotDotToken) break;
    length++;
  }
  return length;
}

function returnSites(decl: ts.SignatureDeclaration, checker: ts.TypeChecker): ReturnSite[] {
  const fn = decl as ts.FunctionLikeDeclaration;
  if (fn.asteriskToken) return [];
  const isAsync = ts.getCombinedModifierFlags(decl) & ts.ModifierFlags.Async;
  if (isAsync) return [{ shape: { kind: 'one', item: { describe: 'Promise', valueObject: true, problem: PROMISE_PROBLEM } }, node: decl.type ?? decl }];
  if (decl.type) return [{ shape: shapeOfType(checker.getTypeFromTypeNode(decl.type), checker), node: decl.type }];
  const body = fn.body;
  if (!body) return [];
  if (!ts.isBlock(body)) return expressionSites(body, checker);
  const sites: ReturnSite[] = [];
  let returns = 0;
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    if (ts.isReturnStatement(node)) {
      returns++;
      if (node.expression) sites.push(...expressionSites(node.expression, checker));
      else sites.push({ shape: { kind: 'nothing' }, node });
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(body);
  const last = body.statements.at(-1);
  if (returns === 0 && !(last && ts.isThrowStatement(last))) sites.push({ shape: { kind: 'nothing' }, node: headOf(decl) });
  return sites;
}

/** Where to show a problem with a function as a whole: its name, its `=>`, or its first token. */
function headOf(decl: ts.SignatureDeclaration): ts.Node {
  if (ts.isArrowFunction(decl)) return decl.equalsGreaterThanToken;
  return decl.name ?? decl.getFirstToken() ?? decl;
}

/** A return expression: `c ? a : b` gives two sites, an array literal a list of its elements. */
function expressionSites(expr: ts.Expression, checker: ts.TypeChecker): ReturnSite[] {
  let e = expr;
  while (ts.isParenthesizedExpression(e) || ts.isSatisfiesExpression(e) || ts.isNonNullExpression(e) || isAsConst(e)) e = e.expression;
  if (ts.isConditionalExpression(e)) return [...expressionSites(e.whenTrue, checker), ...expressionSites(e.whenFalse, checker)];
  if (ts.isArrayLiteralExpression(e)) {
    if (e.elements.some((el) => ts.isSpreadElement(el) || ts.isOmittedExpression(el))) return [{ shape: UNKNOWN, node: e }];
    return [{ shape: { kind: 'list', items: e.elements.map((el) => elementItem(el, checker)) }, node: e }];
  }
  return [{ shape: shapeOfType(checker.getTypeAtLocation(e), checker), node: e }];
}

function isAsConst(e: ts.Expression): e is ts.AsExpression {
  return ts.isAsExpression(e) && ts.isTypeReferenceNode(e.type) && ts.isIdentifier(e.type.typeName) && e.type.typeName.text === 'const';
}

function elementItem(el: ts.Expression, checker: ts.TypeChecker): ReturnedItem {
  if (ts.isArrayLiteralExpression(unwrap(el))) return { describe: 'nested array', valueObject: false };
  const shape = shapeOfType(checker.getTypeAtLocation(el), checker);
  return itemOfShape(shape);
}

/** A list element seen as one value. */
function itemOfShape(shape: ReturnShape): ReturnedItem {
  switch (shape.kind) {
    case 'one':
      return shape.item;
    case 'list':
    case 'array':
      return { describe: 'nested array', valueObject: false };
    case 'nothing':
      return { describe: 'undefined', valueObject: true, problem: 'undefined is not a Tensor, NdArray, typed array, number, boolean, string or nested array' };
    default:
      return { describe: 'value', valueObject: undefined };
  }
}

export function shapeOfType(type: ts.Type, checker: ts.TypeChecker): ReturnShape {
  const f = type.flags;
  if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Never | ts.TypeFlags.TypeParameter | ts.TypeFlags.BigIntLike)) return UNKNOWN;
  if (f & (ts.TypeFlags.Undefined | ts.TypeFlags.Void | ts.TypeFlags.Null)) return { kind: 'nothing' };
  if (type.isUnion()) return sameShape(type.types.map((t) => shapeOfType(t, checker)));
  if (f & ts.TypeFlags.NumberLike) return { kind: 'one', item: { describe: 'number', valueObject: false } };
  if (f & ts.TypeFlags.BooleanLike) return { kind: 'one', item: { dtype: 'bool', describe: 'boolean', valueObject: false } };
  if (f & ts.TypeFlags.StringLike) return { kind: 'one', item: { dtype: 'string', describe: 'string', valueObject: false } };
  if (!(f & ts.TypeFlags.Object)) return UNKNOWN;
  if (checker.isTupleType(type)) {
    const target = (type as ts.TypeReference).target as ts.TupleType;
    if (target.hasRestElement || target.minLength !== target.fixedLength) return UNKNOWN;
    return { kind: 'list', items: checker.getTypeArguments(type as ts.TypeReference).map((t) => itemOfShape(shapeOfType(t, checker))) };
  }
  if (checker.isArrayType(type)) {
    const [element] = checker.getTypeArguments(type as ts.TypeReference);
    return { kind: 'array', element: element ? itemOfShape(shapeOfType(element, checker)) : { describe: 'value', valueObject: undefined } };
  }
  const name = type.getSymbol()?.getName() ?? '';
  const dtype = dtypeOfArrayName(name);
  if (dtype) return { kind: 'one', item: { dtype, describe: name, valueObject: true } };
  if (TENSORS.has(name)) return { kind: 'one', item: { describe: name === 'NdArray' ? 'NdArray' : 'Tensor', valueObject: true } };
  if (name === 'Promise' || name === 'PromiseLike') return { kind: 'one', item: { describe: 'Promise', valueObject: true, problem: PROMISE_PROBLEM } };
  return UNKNOWN;
}

/** A union is known only when every member gives the same thing (`true | false`, `1 | 2`). */
function sameShape(shapes: ReturnShape[]): ReturnShape {
  const [first, ...rest] = shapes;
  if (!first) return UNKNOWN;
  const key = JSON.stringify(first);
  return rest.every((s) => JSON.stringify(s) === key) ? first : UNKNOWN;
}
