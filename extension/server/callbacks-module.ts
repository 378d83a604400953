/**
 * The callbacks module a model.json's nodes are bound from: the `tfjsCallbacks.callbacksModule`
 * setting, else `callbacks.ts` / `callbacks.js` / … next to model.json, found as F5 finds it
 * (runtime/graph-model/model-path.ts). Its keys are read from its syntax as the CLI binds them
 * (runtime/cli/main.ts): the keys of a default-exported object, else the named exports (also
 * through `export * from './…'` and CommonJS `module.exports`).
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { CALLBACKS_MODULE_NAMES, callbacksModuleSetting, conventionalCallbacksModule } from '../../runtime/graph-model/model-path.js';
import { propertyName, unwrap } from './wrapper-calls.js';

export interface CallbacksModule {
  readonly file: string;
  readonly keys: ReadonlySet<string>;
  /** How it was found, for messages. */
  readonly via: 'setting' | 'convention';
  /** Why it (or a module it re-exports) could not be read: its keys are then unknown or partial. */
  readonly unreadable?: string;
}

/** An open document's unsaved text, else the file read from disk (bounded); throws FileReadError when refused. */
export type ReadText = (file: string) => Promise<string>;

export type Located = { readonly file: string; readonly via: 'setting' | 'convention' } | { readonly missing: string; readonly via: 'setting' | 'convention' };

/** `setting` is relative to `workspaceFolder` (or absolute); without one, the conventional names next to model.json. */
export function locateCallbacksModule(modelFile: string, setting: string | undefined, workspaceFolder: string | undefined): Located {
  const configured = callbacksModuleSetting(modelFile, setting, workspaceFolder);
  if (configured) return fs.existsSync(configured) ? { file: configured, via: 'setting' } : { missing: configured, via: 'setting' };
  const file = conventionalCallbacksModule(modelFile, fs.existsSync);
  return file ? { file, via: 'convention' } : { missing: path.join(path.dirname(modelFile), CALLBACKS_MODULE_NAMES[0]!), via: 'convention' };
}

export async function readCallbacksModule(file: string, via: CallbacksModule['via'], readText: ReadText): Promise<CallbacksModule> {
  const problems: string[] = [];
  const keys = await exportedKeys(file, readText, 0, problems);
  return { file, via, keys, ...(problems.length > 0 ? { unreadable: problems.join(' ') } : {}) };
}

async function exportedKeys(file: string, readText: ReadText, depth: number, problems: string[]): Promise<Set<string>> {
  if (depth > 4) return new Set();
  let text: string;
  try {
    text = await readText(file);
  } catch (err) {
    problems.push((err as Error).message);
    return new Set();
  }
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
  const locals = localObjects(sf);
  const named = new Set<string>();
  let defaultObject: Set<string> | undefined;
  const addObject = (expr: ts.Expression): Set<string> | undefined => objectKeys(expr, locals);
  for (const statement of sf.statements) {
    if (ts.isExportAssignment(statement)) defaultObject = addObject(statement.expression) ?? defaultObject;
    else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly) {
      if (statement.exportClause && ts.isNamedExports(statement.exportClause)) {
        for (const el of statement.exportClause.elements) if (!el.isTypeOnly) named.add(el.name.text);
      } else if (!statement.exportClause && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
        const target = resolveRelative(file, statement.moduleSpecifier.text);
        if (target) for (const key of await exportedKeys(target, readText, depth + 1, problems)) if (key !== 'default') named.add(key);
      }
    } else if (hasExport(statement)) {
      if (hasDefault(statement)) continue; // export default function: not an object of callbacks
      if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name) named.add(statement.name.text);
      if (ts.isVariableStatement(statement)) for (const d of statement.declarationList.declarations) bindingNames(d.name, named);
    } else if (ts.isExpressionStatement(statement)) readCommonJs(statement.expression, named, (keys) => (defaultObject = keys), locals);
  }
  return defaultObject ?? named;
}

/** `module.exports = {…}`, `module.exports.x = …`, `exports.x = …`. */
function readCommonJs(expr: ts.Expression, named: Set<string>, setDefault: (keys: Set<string>) => void, locals: Map<string, ts.ObjectLiteralExpression>): void {
  if (!ts.isBinaryExpression(expr) || expr.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return;
  const target = expr.left.getText();
  if (target === 'module.exports') {
    const keys = objectKeys(expr.right, locals);
    if (keys) setDefault(keys);
    return;
  }
  const match = /^(?:module\.)?exports\.([A-Za-z_$][\w$]*)$/.exec(target);
  if (match) named.add(match[1]!);
}

/** Top-level `const x = { … }`, for `export default x` and spreads. */
function localObjects(sf: ts.SourceFile): Map<string, ts.ObjectLiteralExpression> {
  const out = new Map<string, ts.ObjectLiteralExpression>();
  for (const statement of sf.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const d of statement.declarationList.declarations) {
      const init = d.initializer && unwrap(d.initializer);
      if (ts.isIdentifier(d.name) && init && ts.isObjectLiteralExpression(init)) out.set(d.name.text, init);
    }
  }
  return out;
}

function objectKeys(expr: ts.Expression, locals: Map<string, ts.ObjectLiteralExpression>, depth = 0): Set<string> | undefined {
  const e = unwrap(expr);
  const object = ts.isObjectLiteralExpression(e) ? e : ts.isIdentifier(e) ? locals.get(e.text) : undefined;
  if (!object || depth > 4) return undefined;
  const keys = new Set<string>();
  for (const prop of object.properties) {
    if (ts.isSpreadAssignment(prop)) {
      for (const key of objectKeys(prop.expression, locals, depth + 1) ?? []) keys.add(key);
      continue;
    }
    const name = prop.name && propertyName(prop.name);
    if (name !== undefined) keys.add(name);
  }
  return keys;
}

function bindingNames(name: ts.BindingName, out: Set<string>): void {
  if (ts.isIdentifier(name)) out.add(name.text);
  else for (const el of name.elements) if (!ts.isOmittedExpression(el)) bindingNames(el.name, out);
}

function hasExport(node: ts.Statement): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false);
}

function hasDefault(node: ts.Statement): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword) ?? false);
}

function resolveRelative(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  const stem = base.replace(/\.(?:[cm]?js)$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.mts`, `${stem}.tsx`, `${stem}.js`, `${stem}.mjs`, path.join(base, 'index.ts'), path.join(base, 'index.js')];
  return candidates.find((f) => fs.existsSync(f) && fs.statSync(f).isFile());
}

function scriptKind(file: string): ts.ScriptKind {
  if (/\.[cm]?js$/.test(file)) return ts.ScriptKind.JS;
  if (file.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (file.endsWith('.jsx')) return ts.ScriptKind.JSX;
  return ts.ScriptKind.TS;
}
