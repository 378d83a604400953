/**
 * Analysis of one open graph program (a TS/JS document that imports the runtime): its wrapper
 * calls and their static Tout diagnostics, cached per document version, and the matching of
 * the last run's traced call sites to those calls.
 */
import os from 'node:os';
import path from 'node:path';
import type ts from 'typescript';
import type { Diagnostic } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { uriToPath } from './positions.js';
import { checkWrapperCall } from './tout-checks.js';
import type { TraceStore, TracedInvocation } from './trace-store.js';
import type { TsProjects } from './ts-projects.js';
import { findWrapperCalls, importsRuntime, mentionsRuntime, type WrapperCall } from './wrapper-calls.js';

export const SCRIPT_LANGUAGES = new Set(['typescript', 'javascript', 'typescriptreact', 'javascriptreact']);

export interface ProgramAnalysis {
  readonly uri: string;
  readonly version: number;
  /** The file path the TS program knows the document by. */
  readonly fileName: string;
  readonly sourceFile: ts.SourceFile;
  readonly calls: readonly WrapperCall[];
  readonly diagnostics: readonly Diagnostic[];
  /** Milliseconds the analysis took (program update + checks). */
  readonly ms: number;
  /** The program it was made from: another document's edit makes a new one, and the analysis stale. */
  readonly program: ts.Program;
}

export class ProgramAnalyzer {
  private readonly cache = new Map<string, ProgramAnalysis>();

  constructor(private readonly projects: TsProjects) {}

  /** Records a script document's text; true when it is a graph program worth analysing. */
  sync(doc: TextDocument): boolean {
    const graph = mentionsRuntime(doc.getText());
    this.projects.update(fileNameOf(doc), doc.getText(), doc.version, graph);
    if (!graph) this.cache.delete(doc.uri);
    return graph;
  }

  close(doc: TextDocument): void {
    this.projects.close(fileNameOf(doc));
    this.cache.delete(doc.uri);
  }

  cached(uri: string): ProgramAnalysis | undefined {
    return this.cache.get(uri);
  }

  /** The analysis of the document's current version (computed now if needed). */
  analyze(doc: TextDocument): ProgramAnalysis | undefined {
    if (!mentionsRuntime(doc.getText())) return undefined;
    const started = performance.now();
    const fileName = fileNameOf(doc);
    const program = this.projects.program(fileName);
    const cached = this.cache.get(doc.uri);
    if (cached && cached.version === doc.version && cached.program === program) return cached;
    const sourceFile = program?.getSourceFile(fileName);
    // Mentioning the module name (in a string, a comment) is not importing it.
    if (!program || !sourceFile || !importsRuntime(sourceFile)) return undefined;
    const calls = findWrapperCalls(sourceFile);
    const checker = program.getTypeChecker();
    const diagnostics = calls.flatMap((call) => {
      try {
        return checkWrapperCall(call, sourceFile, checker);
      } catch (err) {
        // A checker failure on odd code must not take the other calls' diagnostics with it.
        console.error(`[tfjs-callbacks] analysis of a wrapper call failed: ${(err as Error).stack ?? err}`);
        return [];
      }
    });
    const analysis: ProgramAnalysis = { uri: doc.uri, version: doc.version, fileName, sourceFile, calls, diagnostics, ms: performance.now() - started, program };
    this.cache.set(doc.uri, analysis);
    return analysis;
  }
}

/** The path the TS program uses: the file's own, or a stand-in for untitled documents. */
export function fileNameOf(doc: TextDocument): string {
  const file = uriToPath(doc.uri);
  if (file) return file;
  const ext = doc.languageId.startsWith('javascript') ? '.js' : '.ts';
  return path.join(os.tmpdir(), 'tfjs-callbacks-untitled', `${encodeURIComponent(doc.uri)}${ext}`);
}

export interface TraceMatch {
  /** Invocations per wrapper call. */
  readonly byCall: Map<WrapperCall, TracedInvocation[]>;
  /** Traced sites in this file with no wrapper call there (edited since the run): 1-based line → invocations. */
  readonly unmatched: Map<number, TracedInvocation[]>;
}

/**
 * Matches the trace's call sites in this file to wrapper calls: the call whose callee is on that
 * line, else the innermost call spanning it.
 */
export function matchTrace(analysis: ProgramAnalysis, store: TraceStore): TraceMatch {
  const byCall = new Map<WrapperCall, TracedInvocation[]>();
  const unmatched = new Map<number, TracedInvocation[]>();
  const sf = analysis.sourceFile;
  for (const [line1, invocations] of store.sitesIn(analysis.fileName)) {
    const line = line1 - 1;
    let call = analysis.calls.find((c) => c.line === line);
    if (!call) {
      let best: WrapperCall | undefined;
      for (const c of analysis.calls) {
        const start = sf.getLineAndCharacterOfPosition(c.call.getStart(sf)).line;
        const end = sf.getLineAndCharacterOfPosition(c.call.getEnd()).line;
        if (start <= line && line <= end && (!best || c.call.getWidth(sf) < best.call.getWidth(sf))) best = c;
      }
      call = best;
    }
    if (call) byCall.set(call, [...(byCall.get(call) ?? []), ...invocations]);
    else unmatched.set(line1, [...invocations]);
  }
  return { byCall, unmatched };
}
