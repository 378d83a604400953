/**
 * Analysis of one open graph program (a TS/JS document that imports the runtime): its wrapper
 * calls and their static Tout diagnostics, cached per document version, and the matching of
 * the last run's traced call sites to those calls. A program its project's program does not hold
 * yet is first analysed from the file alone (ts-projects.ts quickProgram), then with its project.
 */
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import { CheckBudget } from './check-budget.js';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { rangeOf, uriToPath } from './positions.js';
import { checkWrapperCall, SOURCE } from './tout-checks.js';
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
  /** Wrapper calls checked with types, and those past the type-check budget (syntax checks only). */
  readonly typeChecked: { readonly calls: number; readonly skipped: number };
  /**
   * False for a first analysis from the file alone (ts-projects' quick program: what it imports is
   * not typed, so a callback whose return type comes from there is not checked yet): the full one
   * follows.
   */
  readonly complete: boolean;
}

/**
 * 'first': a first analysis may come from the file alone while its project's program does not
 * hold the file yet (a fresh server or folder: seconds); 'full': the project's.
 */
export type AnalysisDepth = 'first' | 'full';

export class ProgramAnalyzer {
  private readonly cache = new Map<string, ProgramAnalysis>();

  /** `quickFirst` false: 'first' analyses are full ones (InitializationOptions.quickFirstDiagnostics). */
  constructor(
    private readonly projects: TsProjects,
    private readonly quickFirst = true,
  ) {}

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
  analyze(doc: TextDocument, depth: AnalysisDepth = 'full'): ProgramAnalysis | undefined {
    if (!mentionsRuntime(doc.getText())) return undefined;
    const started = performance.now();
    const fileName = fileNameOf(doc);
    const cached = this.cache.get(doc.uri);
    if (depth === 'first' && cached && cached.version === doc.version && !cached.complete) return cached;
    const quick = depth === 'first' && this.quickFirst ? this.projects.quickProgram(fileName) : undefined;
    const program = quick ?? this.projects.program(fileName);
    if (cached && cached.version === doc.version && cached.program === program) return cached;
    const sourceFile = program?.getSourceFile(fileName);
    // Mentioning the module name (in a string, a comment) is not importing it.
    if (!program || !sourceFile || !importsRuntime(sourceFile)) return undefined;
    const calls = findWrapperCalls(sourceFile);
    const checker = program.getTypeChecker();
    const budget = new CheckBudget();
    const diagnostics = calls.flatMap((call) => {
      try {
        if (!budget.spend(call.call)) return checkWrapperCall(call, sourceFile, undefined);
        if (!quick) return checkWrapperCall(call, sourceFile, checker);
        const watch = new AnyWatch(checker);
        const checked = checkWrapperCall(call, sourceFile, watch.checker);
        return watch.seen ? checkWrapperCall(call, sourceFile, undefined) : checked;
      } catch (err) {
        // A checker failure on odd code must not take the other calls' diagnostics with it.
        console.error(`[tfjs-callbacks] analysis of a wrapper call failed: ${(err as Error).stack ?? err}`);
        return [];
      }
    });
    if (budget.firstSkipped) diagnostics.push(budgetDiagnostic(budget, sourceFile));
    const analysis: ProgramAnalysis = {
      uri: doc.uri,
      version: doc.version,
      fileName,
      sourceFile,
      calls,
      diagnostics,
      ms: performance.now() - started,
      program,
      typeChecked: { calls: budget.typed, skipped: budget.untyped },
      complete: quick === undefined,
    };
    this.cache.set(doc.uri, analysis);
    return analysis;
  }
}

/** The checker's answers that are types (or lists of them). */
const TYPE_ANSWERS = new Set([
  'getTypeAtLocation',
  'getTypeFromTypeNode',
  'getReturnTypeOfSignature',
  'getTypeArguments',
  'getTypeOfSymbol',
  'getTypeOfSymbolAtLocation',
]);

/**
 * A checker that notes when it answers `any`. In a quick program (the file alone) what comes from
 * the file's imports, or from globals the ES libs lack, is `any` where the project's program may
 * know it: a call checked with such an answer could be told otherwise there (a count message
 * listing 'value' for 'NdArray'), so it gets the checks that need no types until the full
 * analysis. A first analysis says nothing the full one will not.
 */
class AnyWatch {
  seen = false;
  readonly checker: ts.TypeChecker;

  constructor(inner: ts.TypeChecker) {
    this.checker = new Proxy(inner, {
      get: (target, key, receiver) => {
        const value: unknown = Reflect.get(target, key, receiver);
        if (typeof key !== 'string' || !TYPE_ANSWERS.has(key) || typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const answer: unknown = value.apply(target, args);
          if ((Array.isArray(answer) ? answer : [answer]).some(isAny)) this.seen = true;
          return answer;
        };
      },
    });
  }
}

function isAny(answer: unknown): boolean {
  return typeof answer === 'object' && answer !== null && 'flags' in answer && ((answer as ts.Type).flags & ts.TypeFlags.Any) !== 0;
}

function budgetDiagnostic(budget: CheckBudget, sf: ts.SourceFile): Diagnostic {
  const total = budget.typed + budget.untyped;
  return {
    severity: DiagnosticSeverity.Information,
    range: rangeOf(budget.firstSkipped!, sf),
    message:
      `Return-type checks stop here: ${budget.typed} of ${total} wrapper calls were checked with types. This program is too long for ` +
      `TypeScript to type every call at typing speed (its flow analysis grows with the square of one function's length). ` +
      `The other ${budget.untyped} calls get the Tout and arity checks only; split the program into modules to check them all. A run still checks Tout.`,
    source: SOURCE,
    code: 'type-check-budget',
  };
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
  const sites = store.sitesIn(analysis.fileName);
  if (sites.size === 0) return { byCall, unmatched };
  // Indexed once: a lookup per traced site, not a scan of every call.
  const onLine = new Map<number, WrapperCall>();
  for (const c of analysis.calls) if (!onLine.has(c.line)) onLine.set(c.line, c);
  let spans: { call: WrapperCall; start: number; end: number; width: number }[] | undefined;
  for (const [line1, invocations] of sites) {
    const line = line1 - 1;
    let call = onLine.get(line);
    if (!call) {
      spans ??= analysis.calls.map((c) => ({
        call: c,
        start: sf.getLineAndCharacterOfPosition(c.call.getStart(sf)).line,
        end: sf.getLineAndCharacterOfPosition(c.call.getEnd()).line,
        width: c.call.getWidth(sf),
      }));
      let best: (typeof spans)[number] | undefined;
      for (const s of spans) if (s.start <= line && line <= s.end && (!best || s.width < best.width)) best = s;
      call = best?.call;
    }
    if (call) byCall.set(call, [...(byCall.get(call) ?? []), ...invocations]);
    else unmatched.set(line1, [...invocations]);
  }
  return { byCall, unmatched };
}
