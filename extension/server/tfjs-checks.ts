/**
 * The project's TensorFlow.js against the range the runtime supports (runtime/tfjs-version.ts),
 * found as the runtime finds it: from the graph program's folder up. An unsupported one is one
 * diagnostic on the program's import of the runtime (running or debugging it is refused with the
 * same message), and one on the package.json line that declares it.
 */
import path from 'node:path';
import { findNodeAtLocation, parseTree, type Node as JsonNode } from 'jsonc-parser';
import type ts from 'typescript';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { checkProjectTfjs, TFJS_PACKAGES } from '../../runtime/tfjs-version.js';
import { uriToPath } from './positions.js';
import { SOURCE } from './tout-checks.js';
import { RUNTIME_MODULE } from './wrapper-calls.js';

export const UNSUPPORTED_TFJS = 'unsupported-tfjs';

/** Where a package.json declares packages. */
const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;

/** Packages that bring @tensorflow/tfjs with them: their line is where a project chose its version. */
const BRINGS_TFJS = [...TFJS_PACKAGES, '@tensorflow/tfjs-node', '@tensorflow/tfjs-node-gpu'];

export function isPackageJson(uri: string, languageId: string): boolean {
  const file = uriToPath(uri);
  return (languageId === 'json' || languageId === 'jsonc') && file !== undefined && path.basename(file) === 'package.json';
}

/** A graph program in a project whose tfjs is unsupported: an error on its import of the runtime. */
export function programTfjsDiagnostics(fileName: string, sourceFile: ts.SourceFile): Diagnostic[] {
  const check = checkProjectTfjs(path.dirname(fileName));
  if (check.ok) return [];
  const text = sourceFile.text;
  const quoted = [`'${RUNTIME_MODULE}'`, `"${RUNTIME_MODULE}"`].map((q) => text.indexOf(q)).filter((i) => i >= 0);
  const start = quoted.length > 0 ? Math.min(...quoted) : 0;
  const end = quoted.length > 0 ? start + RUNTIME_MODULE.length + 2 : 0;
  return [
    {
      severity: DiagnosticSeverity.Error,
      range: { start: sourceFile.getLineAndCharacterOfPosition(start), end: sourceFile.getLineAndCharacterOfPosition(end) },
      message: check.message,
      source: SOURCE,
      code: UNSUPPORTED_TFJS,
    },
  ];
}

/**
 * A package.json that declares a tfjs whose installed version the runtime does not support: a
 * warning on that dependency (the project itself may be fine; running it with tfjs-callbacks is
 * not). Nothing for a package.json that declares none, or before `npm install`.
 */
export function packageJsonDiagnostics(doc: TextDocument): Diagnostic[] {
  const file = uriToPath(doc.uri);
  if (!file) return [];
  const tree = parseTree(doc.getText());
  if (!tree) return [];
  const declared = declaredEntry(tree, (name) => name === TFJS_PACKAGES[0]) ?? declaredEntry(tree, (name) => BRINGS_TFJS.includes(name));
  if (!declared) return [];
  const check = checkProjectTfjs(path.dirname(file));
  if (check.ok) return [];
  const entry = declaredEntry(tree, (name) => name === check.offending.name) ?? declared;
  return [
    {
      severity: DiagnosticSeverity.Warning,
      range: { start: doc.positionAt(entry.offset), end: doc.positionAt(entry.offset + entry.length) },
      message: check.message,
      source: SOURCE,
      code: UNSUPPORTED_TFJS,
    },
  ];
}

/** The first `"name": "range"` entry of the dependency fields whose name matches. */
function declaredEntry(tree: JsonNode, matches: (name: string) => boolean): JsonNode | undefined {
  for (const field of DEPENDENCY_FIELDS) {
    const deps = findNodeAtLocation(tree, [field]);
    if (deps?.type !== 'object') continue;
    const entry = deps.children?.find((property) => typeof property.children?.[0]?.value === 'string' && matches(property.children[0].value));
    if (entry) return entry;
  }
  return undefined;
}
