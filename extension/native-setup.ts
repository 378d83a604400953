/**
 * "TF.js Callbacks: Set Up Native Backend": runs `tfjs-callbacks setup-native` (runtime/native)
 * for the TensorFlow the user picks (python3 on the PATH, another Python, or a wheel), with its
 * lines in the "TF.js Callbacks" output and its outcome in a notification.
 */
import { spawn } from 'node:child_process';
import * as vscode from 'vscode';
import { UNTRUSTED_MESSAGE } from './config-resolution.js';
import { beginRun, extensionOutput, logProcessOutput } from './output.js';
import { NODE_ENV, extensionPaths } from './paths.js';

const ERROR_PREFIX = 'tfjs-callbacks setup-native: ';

export class NativeSetup {
  private readonly output: vscode.LogOutputChannel;

  constructor(private readonly context: vscode.ExtensionContext) {
    this.output = extensionOutput(context);
  }

  async run(): Promise<void> {
    if (!vscode.workspace.isTrusted) return void vscode.window.showErrorMessage(UNTRUSTED_MESSAGE);
    const source = await this.pickSource();
    if (!source) return;
    this.output.show(true);
    const args = [extensionPaths(this.context).cli, 'setup-native', ...source];
    beginRun(this.output, `$ tfjs-callbacks ${args.slice(1).join(' ')}`);
    const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const { code, text } = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'TF.js Callbacks: building the native backend (about 30 s)…' },
      () =>
        new Promise<{ code: number; text: string }>((resolve) => {
          let text = '';
          const child = spawn(process.execPath, args, { ...(cwd ? { cwd } : {}), env: { ...process.env, ...NODE_ENV } });
          const take = (d: Buffer) => {
            text += d.toString();
          };
          logProcessOutput(this.output, child);
          child.stdout.on('data', take);
          child.stderr.on('data', take);
          child.on('error', (err) => resolve({ code: 127, text: `${ERROR_PREFIX}could not start: ${err.message}` }));
          child.on('exit', (c) => resolve({ code: c ?? 1, text }));
        }),
    );
    const lines = text.split('\n');
    if (code === 0) {
      const ready = lines.find((l) => l.startsWith('✓')) ?? 'native backend ready';
      void vscode.window.showInformationMessage(`${ready}. auto now picks tensorflow.`);
    } else {
      const error = lines.find((l) => l.startsWith(ERROR_PREFIX))?.slice(ERROR_PREFIX.length) ?? `exited with code ${code}`;
      void vscode.window.showErrorMessage(`Set Up Native Backend: ${error}`, 'Show Output').then((pick) => pick && this.output.show());
    }
  }

  /** The CLI's TensorFlow arguments, or undefined when the pick was dismissed. */
  private async pickSource(): Promise<string[] | undefined> {
    const picked = await vscode.window.showQuickPick(
      [
        { label: 'python3 on the PATH', detail: 'its tensorflow or tensorflow-cpu package', args: [] as string[] },
        { label: 'Another Python…', detail: 'the python of a virtual environment or conda env with TensorFlow 2.9+', args: ['--python'] },
        { label: 'A TensorFlow wheel…', detail: 'a tensorflow*-2.x-…-linux_x86_64.whl file', args: ['--wheel'] },
      ],
      { title: 'TF.js Callbacks: Set Up Native Backend', placeHolder: 'Build @tensorflow/tfjs-node against which TensorFlow?' },
    );
    if (!picked) return undefined;
    if (picked.args.length === 0) return [];
    const file = await vscode.window.showOpenDialog({
      title: picked.label,
      canSelectMany: false,
      ...(picked.args[0] === '--wheel' ? { filters: { 'Python wheel': ['whl'] } } : {}),
    });
    return file?.[0] ? [picked.args[0]!, file[0].fsPath] : undefined;
  }
}
