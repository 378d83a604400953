/**
 * Publishes diagnostics: for graph programs the static Tout checks plus the last run's failures,
 * for model.json the unbound callback nodes plus the last run's failures, and for both programs
 * and package.json an unsupported TensorFlow.js in the project (tfjs-checks). An edited document is
 * validated at once (the edits in between coalesce); the documents that depend on it (other
 * programs, model.json files bound from a callbacks module) a little later. A program just opened
 * is published twice: from the file alone first (in a fraction of the time a fresh project's
 * program takes), then with its project (program-analysis.ts AnalysisDepth).
 */
import path from 'node:path';
import type { Connection, Diagnostic, TextDocuments } from 'vscode-languageserver';
import { mark } from '../../debug-adapter/debuggee/timeline.js';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { READ_LIMITS, readBoundedText } from '../../runtime/bounded-read.js';
import { CALLBACKS_MODULE_NAMES, callbacksModuleSetting } from '../../runtime/graph-model/model-path.js';
import { locateCallbacksModule, readCallbacksModule } from './callbacks-module.js';
import { lastRunFileDiagnostics, lastRunProgramDiagnostics } from './last-run.js';
import { checkModel, isModelJson } from './model-checks.js';
import { ModelFolders } from './model-folders.js';
import { pathKey, uriToPath } from './positions.js';
import { type AnalysisDepth, matchTrace, type ProgramAnalysis, SCRIPT_LANGUAGES, type ProgramAnalyzer } from './program-analysis.js';
import type { Settings } from './settings.js';
import { packageJsonDiagnostics, isPackageJson, programTfjsDiagnostics } from './tfjs-checks.js';
import type { TraceStore } from './trace-store.js';

const DEPENDENTS_DELAY_MS = 250;

export class Validator {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Documents that currently have diagnostics published, so they can be cleared. */
  private readonly published = new Set<string>();
  /** The folders open models are bound from, watched: a callbacks module made or removed from a shell re-validates them. */
  private readonly modelFolders = new ModelFolders((uri) => this.schedule(uri, DEPENDENTS_DELAY_MS));

  constructor(
    private readonly connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly analyzer: ProgramAnalyzer,
    private readonly settings: Settings,
    private readonly traces: TraceStore,
  ) {}

  /**
   * A document changed: validate it now, and shortly the documents that may depend on it: every
   * model.json (its callbacks module may be this one) and the open programs whose text names this
   * file (an import of it; transitive imports are caught up on their own next edit).
   */
  changed(doc: TextDocument): void {
    this.schedule(doc.uri, 0);
    const stem = SCRIPT_LANGUAGES.has(doc.languageId) ? path.basename(uriToPath(doc.uri) ?? doc.uri).replace(/\.[^.]*$/, '') : undefined;
    for (const other of this.documents.all()) {
      if (other.uri === doc.uri) continue;
      const dependent =
        isModelJson(other.uri, other.languageId) || (stem !== undefined && SCRIPT_LANGUAGES.has(other.languageId) && other.getText().includes(stem));
      if (dependent) this.schedule(other.uri, DEPENDENTS_DELAY_MS);
    }
  }

  all(): void {
    for (const doc of this.documents.all()) this.schedule(doc.uri, 0);
  }

  closed(uri: string): void {
    this.modelFolders.unwatch(uri);
    clearTimeout(this.timers.get(uri));
    this.timers.delete(uri);
    if (this.published.delete(uri)) void this.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  dispose(): void {
    this.modelFolders.dispose();
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private schedule(uri: string, delayMs: number, depth: AnalysisDepth = 'first'): void {
    const existing = this.timers.get(uri);
    if (existing && delayMs > 0) return; // already due, no later than this
    clearTimeout(existing);
    this.timers.set(
      uri,
      setTimeout(() => {
        this.timers.delete(uri);
        this.validate(uri, depth).catch((err: unknown) =>
          this.connection.console.error(`[tfjs-callbacks] validating ${uri} failed: ${(err as Error)?.stack ?? err}`),
        );
      }, delayMs),
    );
  }

  private async validate(uri: string, depth: AnalysisDepth): Promise<void> {
    const doc = this.documents.get(uri);
    if (!doc) return;
    if (SCRIPT_LANGUAGES.has(doc.languageId)) {
      const analysis = this.analyzer.analyze(doc, depth);
      if (analysis) {
        this.publish(doc, this.programDiagnostics(doc, analysis));
        // From the file alone: its project's analysis next, once this publish is written (the
        // connection writes on setImmediate, before the next timer).
        if (!analysis.complete) this.schedule(uri, 0, 'full');
      } else if (this.published.delete(uri)) void this.connection.sendDiagnostics({ uri, version: doc.version, diagnostics: [] }); // no longer a graph program
      return;
    }
    if (isModelJson(doc.uri, doc.languageId)) {
      const version = doc.version;
      const diagnostics = await this.modelDiagnostics(doc);
      if (this.documents.get(uri)?.version === version) this.publish(doc, diagnostics);
      return;
    }
    if (isPackageJson(doc.uri, doc.languageId)) this.publish(doc, packageJsonDiagnostics(doc));
  }

  private programDiagnostics(doc: TextDocument, analysis: ProgramAnalysis): Diagnostic[] {
    const file = uriToPath(doc.uri);
    return [
      ...(file ? programTfjsDiagnostics(file, analysis.sourceFile) : []),
      ...analysis.diagnostics,
      ...lastRunProgramDiagnostics(analysis, matchTrace(analysis, this.traces)),
    ];
  }

  async modelDiagnostics(doc: TextDocument): Promise<Diagnostic[]> {
    const modelFile = uriToPath(doc.uri);
    if (!modelFile) return [];
    const { callbacksModule } = await this.settings.forUri(doc.uri);
    const folder = this.settings.folderOf(modelFile);
    const configured = callbacksModuleSetting(modelFile, callbacksModule, folder);
    // What the binding is found by (as locateCallbacksModule looks): the setting's file, else each
    // conventional name beside the model; not for a model closed while its setting was asked.
    if (this.documents.get(doc.uri))
      this.modelFolders.watch(doc.uri, configured ? [configured] : CALLBACKS_MODULE_NAMES.map((name) => path.join(path.dirname(modelFile), name)));
    const located = locateCallbacksModule(modelFile, callbacksModule, folder);
    const module = 'file' in located ? await readCallbacksModule(located.file, located.via, (file) => this.textOf(file)) : undefined;
    if (module?.unreadable) this.connection.console.warn(`[tfjs-callbacks] ${module.unreadable}`);
    const text = doc.getText();
    return [
      ...checkModel(text, { modelFile, located, ...(module ? { module } : {}), relativeTo: folder ?? modelFile }),
      ...lastRunFileDiagnostics(modelFile, text, this.traces),
    ];
  }

  /**
   * An open document's unsaved text, else the file on disk: a regular file within the source cap,
   * read without blocking the server (a setting may point at /dev/zero or a FIFO).
   */
  private async textOf(file: string): Promise<string> {
    const key = pathKey(file);
    for (const doc of this.documents.all()) {
      const p = uriToPath(doc.uri);
      if (p && pathKey(p) === key) return doc.getText();
    }
    return readBoundedText(file, { maxBytes: READ_LIMITS.source, what: 'the callbacks module' });
  }

  /** Publishes on every validation, also an empty list: the client then knows the document is clean. */
  private publish(doc: TextDocument, diagnostics: Diagnostic[]): void {
    this.published.add(doc.uri);
    if (diagnostics.length > 0) mark('language server: diagnostics published');
    void this.connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics });
  }
}
