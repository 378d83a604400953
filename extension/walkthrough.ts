/**
 * The walkthrough (package.json `walkthroughs`: Debug a TF.js Callback): its Create Sample Project
 * command, and the context keys that mark its steps done on the real events — a breakpoint set, a
 * stop inside a callback. (Opening the inspector and the graph view complete theirs by `onView:`
 * and `onCommand:`.)
 *
 * Each key is a pulse: true on the event, false again a moment later. VS Code (1.100's walkthrough
 * service, made when the walkthrough is first opened) treats an `onContext:` expression already true
 * when it registers the step as an event seen this session and never completes the step on it; a
 * key left true would lock the step for the rest of the window.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { TENSOR_CALLBACK_EVENT } from '../debug-adapter/extension-protocol.js';
import { DEBUG_TYPE } from './config-resolution.js';
import { SAMPLE_BREAK_LINE, SAMPLE_FOLDER, sampleFiles } from './sample-project.js';

export const CREATE_SAMPLE_COMMAND = 'tfjsCallbacks.createSample';
const BREAKPOINT_SET = 'tfjsCallbacks.walkthrough.breakpointSet';
const STOPPED_IN_CALLBACK = 'tfjsCallbacks.walkthrough.stoppedInCallback';

/** How long a key stays true: long enough for the workbench to see the change. */
const PULSE_MS = 1_000;

export function registerWalkthrough(context: vscode.ExtensionContext): void {
  const pulses = new Map<string, NodeJS.Timeout>();
  const setContext = (key: string) => {
    if (pulses.has(key)) return;
    void vscode.commands.executeCommand('setContext', key, true);
    pulses.set(
      key,
      setTimeout(() => {
        pulses.delete(key);
        void vscode.commands.executeCommand('setContext', key, false);
      }, PULSE_MS),
    );
  };
  context.subscriptions.push(
    { dispose: () => pulses.forEach((timer) => clearTimeout(timer)) },
    vscode.commands.registerCommand(CREATE_SAMPLE_COMMAND, (target?: unknown) => createSample(target instanceof vscode.Uri ? target : undefined)),
    vscode.debug.onDidChangeBreakpoints((e) => {
      if (e.added.some((b) => b instanceof vscode.SourceBreakpoint)) setContext(BREAKPOINT_SET);
    }),
    vscode.debug.onDidReceiveDebugSessionCustomEvent((e) => {
      if (e.session.type === DEBUG_TYPE && e.event === TENSOR_CALLBACK_EVENT) setContext(STOPPED_IN_CALLBACK);
    }),
  );
}

/** Writes the sample into a new folder in `parent` (asked for when not given), then opens its program. */
async function createSample(parent: vscode.Uri | undefined): Promise<void> {
  const folder =
    parent ??
    (
      await vscode.window.showOpenDialog({
        canSelectFolders: true,
        canSelectFiles: false,
        openLabel: 'Create the sample here',
        title: `TF.js Callbacks: the sample goes into a new folder '${SAMPLE_FOLDER}' inside the folder you pick`,
        ...(vscode.workspace.workspaceFolders?.[0] ? { defaultUri: vscode.workspace.workspaceFolders[0].uri } : {}),
      })
    )?.[0];
  if (!folder) return;
  const root = path.join(folder.fsPath, SAMPLE_FOLDER);
  if (fs.existsSync(root)) {
    const open = 'Open Its Program';
    const answer = await vscode.window.showWarningMessage(`${root} exists already: nothing was written. Pick another folder, or open it.`, open);
    if (answer === open) await showProgram(root);
    return;
  }
  try {
    for (const [file, content] of Object.entries(sampleFiles())) {
      const target = path.join(root, file);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, content);
    }
  } catch (err) {
    return void vscode.window.showErrorMessage(`Create Sample Project: could not write ${root}: ${(err as Error).message}. Pick a folder you can write to.`);
  }
  const inWorkspace = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(root)) !== undefined;
  if (inWorkspace) return showProgram(root);
  // Outside the open folders: open the sample as the workspace (the window reloads; the walkthrough keeps its progress).
  await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(root));
}

/** The program in the editor, its breakpoint line in view. */
async function showProgram(root: string): Promise<void> {
  const line = SAMPLE_BREAK_LINE - 1;
  await vscode.window.showTextDocument(vscode.Uri.file(path.join(root, 'main.ts')), { selection: new vscode.Range(line, 0, line, 0) });
}
