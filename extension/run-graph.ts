/**
 * "TF.js Callbacks: Run Graph": runs the current graph program or a model.json through the runtime
 * CLI, shows its trace in an output channel and a summary, and turns Tout mismatches into Problems.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { TraceFile } from '../runtime/cli/trace.js';
import { isGraphProgram, isModelJson, runArguments, UNTRUSTED_MESSAGE } from './config-resolution.js';
import { editorContext } from './editor-context.js';
import { beginRun, extensionOutput } from './output.js';
import { NODE_ENV, extensionPaths } from './paths.js';

export interface RunResult {
  readonly exitCode: number;
  readonly trace?: TraceFile;
  readonly traceFile: string;
}

export class GraphRunner {
  private readonly output: vscode.OutputChannel;
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
    const args = [extensionPaths(this.context).cli, ...runArguments(target, traceFile, ctx)];
    this.output.show(true);
    beginRun(this.output, `$ tfjs-callbacks ${args.slice(1).join(' ')}`);
    const exitCode = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, args, { cwd: ctx.workspaceFolder ?? path.dirname(target), env: { ...process.env, ...NODE_ENV } });
      child.stdout.on('data', (d: Buffer) => this.output.append(d.toString()));
      child.stderr.on('data', (d: Buffer) => this.output.append(d.toString()));
      child.on('error', (err) => {
        this.output.appendLine(`could not start: ${err.message}`);
        resolve(127);
      });
      child.on('exit', (code) => resolve(code ?? 1));
    });
    const trace = readTrace(traceFile);
    const result: RunResult = { exitCode, traceFile, ...(trace ? { trace } : {}) };
    this.showProblems(trace);
    this.traceUpdated.fire(result);
    void this.announce(target, result);
    return result;
  }

  /** Problems for the files the language server does not cover: those not open in an editor. */
  private showProblems(trace: TraceFile | undefined): void {
    this.problems.clear();
    if (!trace) return;
    const open = new Set(vscode.workspace.textDocuments.map((d) => d.uri.fsPath));
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const inv of trace.invocations) {
      if (inv.toutCheck.ok || !inv.callSite || open.has(inv.callSite.file)) continue;
      const line = Math.max(0, inv.callSite.line - 1);
      // A model node's span (its name in a one-line model.json), else the whole line.
      const { endLine, endColumn } = inv.callSite;
      const range =
        endLine !== undefined && endColumn !== undefined
          ? new vscode.Range(line, inv.callSite.column - 1, endLine - 1, endColumn - 1)
          : new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER);
      for (const m of inv.toutCheck.mismatches) {
        const d = new vscode.Diagnostic(range, m.message, vscode.DiagnosticSeverity.Error);
        d.source = 'tfjs-callbacks run';
        d.code = 'tout-mismatch';
        const list = byFile.get(inv.callSite.file) ?? [];
        if (!list.some((x) => x.message === d.message && x.range.isEqual(range))) list.push(d);
        byFile.set(inv.callSite.file, list);
      }
    }
    for (const [file, diagnostics] of byFile) this.problems.set(vscode.Uri.file(file), diagnostics);
  }

  private async announce(target: string, result: RunResult): Promise<void> {
    const s = result.trace?.summary;
    const name = path.basename(target);
    if (!s) {
      void vscode.window.showErrorMessage(`Run Graph: ${name} exited with code ${result.exitCode} and wrote no trace. See the "TF.js Callbacks" output.`);
      return;
    }
    const text = `${name}: ${s.invocations} callback invocations of ${s.callbacks} callbacks · ${s.toutMismatches} Tout mismatches · ${s.errors} errors · backend ${result.trace?.backend?.backend ?? '?'}`;
    if (result.exitCode === 0 && s.toutMismatches === 0 && s.errors === 0) void vscode.window.showInformationMessage(`Run Graph ✓ ${text}`);
    else void vscode.window.showWarningMessage(`Run Graph ✗ ${text}${result.trace?.failure ? ` — ${result.trace.failure.message.split('\n')[0]}` : ''}`);
  }
}

function readTrace(file: string): TraceFile | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as TraceFile;
  } catch {
    return undefined;
  }
}
