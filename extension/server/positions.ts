/**
 * Conversions between TS nodes, file paths and LSP ranges and URIs.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type ts from 'typescript';
import type { Range } from 'vscode-languageserver';
import type { TextRange } from '../../runtime/graph-model/node-locations.js';
import type { LineIndex } from './line-index.js';

export function rangeOf(node: ts.Node, sf: ts.SourceFile): Range {
  return { start: sf.getLineAndCharacterOfPosition(node.getStart(sf)), end: sf.getLineAndCharacterOfPosition(node.getEnd()) };
}

/** The runtime's 1-based text range (a model node's name in model.json) as an LSP range. */
export function textRangeToLsp(r: TextRange): Range {
  return { start: { line: r.line - 1, character: r.column - 1 }, end: { line: r.endLine - 1, character: r.endColumn - 1 } };
}

/** A whole 0-based line (to its end when the text's line index is given; build it once per text). */
export function lineRange(line: number, lines?: LineIndex): Range {
  return lines ? lines.lineRange(line) : { start: { line, character: 0 }, end: { line, character: 0 } };
}

/** The file path of a file: URI, or undefined for other schemes (untitled:, vscode-notebook-cell:, …). */
export function uriToPath(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return path.normalize(fileURLToPath(uri));
  } catch {
    return undefined;
  }
}

/** Paths compared as the file system does (case-insensitively on Windows and macOS). */
export function pathKey(file: string): string {
  const resolved = path.resolve(file);
  return process.platform === 'win32' || process.platform === 'darwin' ? resolved.toLowerCase() : resolved;
}
