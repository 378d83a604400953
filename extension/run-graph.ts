/**
 * "TF.js Callbacks: Run Graph": runs the current graph program or a model.json through the runtime
 * CLI, shows its trace in an output channel and a summary, and turns Tout mismatches into Problems.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { nonFiniteOutputsProblem } from '../runtime/cli/run-summary.js';
import type { TraceFile } from '../runtime/cli/trace.js';
import type { CallbackInvocation } from '../runtime/events.js';
import { READ_LIMITS, readBoundedText } from '../runtime/bounded-read.js';
import { type DebugConfig, isGraphProgram, isModelJson, launchRuntimeArgs, runArguments, runtimePreloads, UNTRUSTED_MESSAGE } from './config-resolution.js';
import { editorContext } from './editor-context.js';
import { beginRun, extensionOutput, logProcessOutput } from './output.js';
import { NODE_ENV, extensionPaths } from './paths.js';
import { runAnnouncement } from './run-announcement.js';

export interface RunResult {
  readonly exitCode: number;
  readonly trace?: TraceFile;
  readonly traceFile: string;
}

export class GraphRunner {
  private readonly output: vscode.LogOutputChannel;
  private readonly problems = vscode.languages.createDiagnosticCollection('tfjs-callbacks-run');
  private readonly traceUpdated = new vscode.EventEmitter<RunResult>();
  readonly onDidRun = this.traceUpdated.event;

  constructor(private readonly context: vscode.ExtensionContext) {
    this.output = extensionOutput(context);
    context.subscriptions.push(
      this.problems,
      this.traceUpdated,
      // An open file gets the last run's mismatches from the language server (with the callee's
      // range and counts): one source of each problem, not two.
      vscode.workspace.onDidOpenTextDocument((doc) => this.problems.delete(doc.uri)),
    );
  }

  /** The trace file of the last run (where the language server reads hovers from). */
  get traceFile(): string {
    const dir = this.context.storageUri?.fsPath ?? this.context.globalStorageUri.fsPath;
    mkdirSync(dir, { recursive: true });
    return path.join(dir, 'last-run.trace.json');
  }

  async pickTarget(uri?: vscode.Uri): Promise<string | undefined> {
    const file = uri?.fsPath ?? vscode.window.activeTextEditor?.document.uri.fsPath;
    if (file && (isGraphProgram(file) || isModelJson(file))) return file;
    const picked = await vscode.window.showOpenDialog({
      canSelectMany: false,
      filters: { 'Graph program or model': ['ts', 'mts', 'js', 'mjs', 'json'] },
      openLabel: 'Run graph',
    });
    return picked?.[0]?.fsPath;
  }

  async run(uri?: vscode.Uri): Promise<RunResult | undefined> {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showErrorMessage(UNTRUSTED_MESSAGE);
      return undefined;
    }
    const target = await this.pickTarget(uri);
    if (!target) return undefined;
    const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(target));
    const ctx = editorContext(folder);
    const traceFile = this.traceFile;
    // A run that fails before writing its trace must not be reported with the last run's.
    rmSync(traceFile, { force: true });
    const preloads = this.launchPreloads(target, folder, ctx.workspaceFolder);
    const args = [extensionPaths(this.context).cli, ...runArguments(target, traceFile, ctx, preloads)];
    this.output.show(true);
    beginRun(this.output, `$ tfjs-callbacks ${args.slice(1).join(' ')}`);
    const exitCode = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, args, { cwd: ctx.workspaceFolder ?? path.dirname(target), env: { ...process.env, ...NODE_ENV } });
      logProcessOutput(this.output, child);
      child.on('error', (err) => {
        this.output.error(`could not start: ${err.message}`);
        resolve(127);
      });
      child.on('exit', (code) => resolve(code ?? 1));
    });
    const trace = await readTrace(traceFile);
    const result: RunResult = { exitCode, traceFile, ...(trace ? { trace } : {}) };
    this.showProblems(trace);
    this.traceUpdated.fire(result);
    void this.announce(target, result);
    return result;
  }

  /** The Node preloads (`-r @babel/register`) of the launch configuration F5 would use for `target`, as Run Graph passes them to the CLI. */
  private launchPreloads(target: string, folder: vscode.WorkspaceFolder | undefined, workspaceFolder: string | undefined): string[] {
    const configurations = vscode.workspace.getConfiguration('launch', folder?.uri).get<DebugConfig[]>('configurations', []);
    const { preloads, ignored } = runtimePreloads(launchRuntimeArgs(target, configurations, workspaceFolder));
    if (ignored.length)
      this.output.warn(`Run Graph passes the launch configuration's Node preloads to the CLI, not its other runtimeArgs (${ignored.join(' ')})`);
    return preloads;
  }

  /**
   * Problems for the files the language server does not cover, those not open in an editor, as it
   * says them (server/last-run.ts): Tout mismatches, and NaN/Inf outputs per call site.
   */
  private showProblems(trace: TraceFile | undefined): void {
    this.problems.clear();
    if (!trace) return;
    const open = new Set(vscode.workspace.textDocuments.map((d) => d.uri.fsPath));
    const sites = new Map<string, { file: string; range: vscode.Range; invocations: CallbackInvocation[] }>();
    for (const inv of trace.invocations) {
      if (!inv.callSite || open.has(inv.callSite.file)) continue;
      const range = siteRange(inv.callSite);
      const key = `${inv.callSite.file}\u0000${range.start.line}:${range.start.character}:${range.end.line}:${range.end.character}`;
      const site = sites.get(key) ?? { file: inv.callSite.file, range, invocations: [] };
      site.invocations.push(inv);
      sites.set(key, site);
    }
    const byFile = new Map<string, vscode.Diagnostic[]>();
    const add = (file: string, d: vscode.Diagnostic) => {
      const list = byFile.get(file) ?? [];
      if (!list.some((x) => x.message === d.message && x.range.isEqual(d.range))) list.push(d);
      byFile.set(file, list);
    };
    for (const { file, range, invocations } of sites.values()) {
      for (const inv of invocations) {
        if (inv.toutCheck?.ok !== false) continue;
        for (const m of inv.toutCheck.mismatches) add(file, problem(range, m.message, vscode.DiagnosticSeverity.Error, 'tout-mismatch'));
      }
      const nonFinite = nonFiniteOutputsProblem(invocations);
      if (nonFinite) add(file, problem(range, nonFinite, vscode.DiagnosticSeverity.Warning, 'non-finite-output'));
    }
    for (const [file, diagnostics] of byFile) this.problems.set(vscode.Uri.file(file), diagnostics);
  }

  private async announce(target: string, result: RunResult): Promise<void> {
    const { severity, text } = runAnnouncement(path.basename(target), result.exitCode, result.trace);
    if (severity === 'info') void vscode.window.showInformationMessage(text);
    else if (severity === 'warning') void vscode.window.showWarningMessage(text);
    else void vscode.window.showErrorMessage(text);
  }
}

/** A model node's span (its name in a one-line model.json), else the whole line. */
function siteRange(site: NonNullable<CallbackInvocation['callSite']>): vscode.Range {
  const line = Math.max(0, site.line - 1);
  const { endLine, endColumn } = site;
  return endLine !== undefined && endColumn !== undefined
    ? new vscode.Range(line, site.column - 1, endLine - 1, endColumn - 1)
    : new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER);
}

function problem(range: vscode.Range, message: string, severity: vscode.DiagnosticSeverity, code: string): vscode.Diagnostic {
  const d = new vscode.Diagnostic(range, message, severity);
  d.source = 'tfjs-callbacks run';
  d.code = code;
  return d;
}

/** The run's trace, read bounded and without blocking the extension host (the language server reads it so: trace-store.ts). */
async function readTrace(file: string): Promise<TraceFile | undefined> {
  try {
    return JSON.parse(await readBoundedText(file, { maxBytes: READ_LIMITS.json, what: 'the trace' })) as TraceFile;
  } catch {
    return undefined;
  }
}
