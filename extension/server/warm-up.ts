/**
 * A server started before any file is open (the extension starts it as a TF.js project's window
 * opens) analyses a small graph program of its own while it waits: TypeScript's ECMAScript libs are
 * then parsed and its checker compiled, so the first file opened gets its diagnostics in the time of
 * its own analysis. The program is a document in memory, never written, never published.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { ProgramAnalyzer } from './program-analysis.js';

/** What the server logs once warmed up. */
export const WARMED_UP = "warmed up before any file opened: TypeScript's libs parsed, its checker compiled";

/** A callback whose return the Tout check types: the same work the first real file asks. */
const WARM_UP_PROGRAM = `const { numpyFunction } = require('tfjs-callback-debugger/runtime');
function scale(x) {
  return Float32Array.from(x.data, (v) => v * 2);
}
numpyFunction(scale, [], 'float32');
`;

/** Analyses the warm-up program as a file of `folder` (its project's compiler options); the number of its diagnostics. */
export function warmUp(analyzer: ProgramAnalyzer, folder: string): number {
  const file = path.join(folder, '.tfjs-callbacks-warm-up.js');
  const doc = TextDocument.create(pathToFileURL(file).href, 'javascript', 1, WARM_UP_PROGRAM);
  try {
    analyzer.sync(doc);
    return analyzer.analyze(doc, 'first')?.diagnostics.length ?? 0;
  } finally {
    analyzer.close(doc);
  }
}
