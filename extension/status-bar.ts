/** The status bar item: the backend setting, and the backend the last run actually used. */
import * as vscode from 'vscode';
import { BACKENDS, type Backend } from './config-resolution.js';
import { inTfjsProject } from './language-client.js';
import { isModelJsonPath } from '../runtime/graph-model/model-path.js';

/** Documents whose opening brings the backend item (the extension's activation by language, before). */
const showsBackend = (doc: vscode.TextDocument) =>
  doc.uri.scheme === 'file' && (doc.languageId === 'typescript' || doc.languageId === 'javascript' || isModelJsonPath(doc.fileName));

export class BackendStatus {
  private readonly item = vscode.window.createStatusBarItem('tfjsCallbacks.backend', vscode.StatusBarAlignment.Left, 10);
  private lastUsed: string | undefined;
  private shown = false;

  constructor(context: vscode.ExtensionContext) {
    this.item.name = 'TF.js Callbacks backend';
    this.item.command = 'tfjsCallbacks.selectBackend';
    context.subscriptions.push(
      this.item,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('tfjsCallbacks.backend')) {
          this.lastUsed = undefined;
          this.update();
        }
      }),
    );
    this.update();
    // Shown in a TF.js project, and elsewhere once a TS/JS file or a model is open (the extension
    // also wakes for any folder with a package.json, to check whether it is a TF.js project).
    if (vscode.workspace.textDocuments.some(showsBackend)) this.show();
    else {
      const opened = vscode.workspace.onDidOpenTextDocument((doc) => {
        if (!showsBackend(doc)) return;
        opened.dispose();
        this.show();
      });
      context.subscriptions.push(opened);
      // Asked without waiting (it reads the workspace's package.json files): activation goes on.
      void inTfjsProject().then((project) => {
        if (!project) return;
        opened.dispose();
        this.show();
      });
    }
  }

  private readonly shownListeners: (() => void)[] = [];

  /** Runs `listener` once the item is in the status bar (now, if it is): the NaN/Inf item shows with it. */
  whenShown(listener: () => void): void {
    if (this.shown) listener();
    else this.shownListeners.push(listener);
  }

  private show(): void {
    this.item.show();
    if (this.shown) return;
    this.shown = true;
    for (const listener of this.shownListeners.splice(0)) listener();
  }

  get setting(): Backend {
    return vscode.workspace.getConfiguration('tfjsCallbacks').get<Backend>('backend', 'auto');
  }

  /** After a run: what the runtime chose (auto resolves to one of the backends). */
  used(backend: string | undefined): void {
    this.lastUsed = backend;
    this.update();
    this.show();
  }

  async select(): Promise<void> {
    const current = this.setting;
    const picked = await vscode.window.showQuickPick(
      BACKENDS.map((b) => ({ label: b, description: b === current ? '(current)' : DESCRIPTIONS[b] })),
      { title: 'TF.js Callbacks: Select Backend', placeHolder: `Backend for Run Graph and Debug Graph (now ${current})` },
    );
    if (!picked) return;
    await vscode.workspace
      .getConfiguration('tfjsCallbacks')
      .update('backend', picked.label, vscode.workspace.workspaceFolders ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global);
    this.lastUsed = undefined;
    this.update();
  }

  private update(): void {
    const setting = this.setting;
    const used = this.lastUsed && this.lastUsed !== setting ? ` → ${this.lastUsed}` : '';
    this.item.text = `$(circuit-board) TF.js: ${setting}${used}`;
    this.item.tooltip = `TF.js Callbacks backend: ${setting}${used ? ` (last run used ${this.lastUsed})` : ''}. Click to change.`;
  }
}

const DESCRIPTIONS: Record<Backend, string> = {
  auto: 'tensorflow if @tensorflow/tfjs-node loads, else wasm, else cpu',
  tensorflow: 'native TensorFlow (@tensorflow/tfjs-node)',
  wasm: 'WebAssembly (@tensorflow/tfjs-backend-wasm)',
  cpu: 'pure JavaScript',
};
