/**
 * TF.js: Show tf.Variables — the program's training state while it is paused: each registered
 * tf.Variable with its dtype, shape and summary. Picking one offers Break on Value Change, Break
 * When It Becomes NaN/Inf (function breakpoints named `tf.Variable <name>`, which the adapter reads
 * as data breakpoints: VS Code has no API for an extension to add a data breakpoint), Inspect (the
 * tensor inspector) and Copy Expression (`$tfVariables["name"]`, for watches and the Debug Console).
 * The words are built in variable-items.ts (no vscode import: tested as is).
 */
import * as vscode from 'vscode';
import {
  type GraphNodeEventBody,
  TRAINING_VARIABLES_REQUEST,
  type TrainingVariable,
  type TrainingVariablesResponseBody,
  VARIABLE_BREAKPOINT_PREFIX,
} from '../debug-adapter/extension-protocol.js';
import { DEBUG_TYPE } from './config-resolution.js';
import { type VariableAction, variableActions, variableExpression, variableItem, variableNode } from './variable-items.js';

/** Opens a node (a tf.Variable as one) in the tensor inspector. */
export type ShowNode = (session: vscode.DebugSession, node: GraphNodeEventBody) => Promise<void>;

export async function showTrainingVariables(show: ShowNode): Promise<void> {
  const session = vscode.debug.activeDebugSession;
  if (session?.type !== DEBUG_TYPE)
    return void vscode.window.showErrorMessage(`Show tf.Variables works while a ${DEBUG_TYPE} debug session is paused: start one with F5 and stop in it.`);
  let variables: TrainingVariable[];
  try {
    ({ variables } = (await session.customRequest(TRAINING_VARIABLES_REQUEST)) as TrainingVariablesResponseBody);
  } catch (err) {
    return void vscode.window.showErrorMessage(`Show tf.Variables: ${(err as Error).message}`);
  }
  if (variables.length === 0)
    return void vscode.window.showInformationMessage('The program has no tf.Variable yet (a model makes its weights when it is built or first called).');
  const picked = await vscode.window.showQuickPick(
    variables.map((v) => ({ ...variableItem(v), variable: v })),
    {
      title: `tf.Variables (${variables.length})`,
      placeHolder: 'Pick a variable: break when it changes, inspect it, or copy its expression',
      matchOnDescription: true,
    },
  );
  if (picked) await pickVariableAction(picked.variable, session, show);
}

/**
 * What to do with one tf.Variable: Break on Value Change, Break When It Becomes NaN/Inf, Inspect,
 * Copy Expression (also the inspector's Model section's, for a weight).
 */
export async function pickVariableAction(variable: TrainingVariable, session: vscode.DebugSession, show: ShowNode): Promise<void> {
  const action = await vscode.window.showQuickPick(
    variableActions(variable).map((a) => ({ label: a.label, detail: a.detail, action: a })),
    { title: `tf.Variable '${variable.name}'` },
  );
  if (action) await run(action.action, variable, session, show);
}

async function run(action: VariableAction, variable: TrainingVariable, session: vscode.DebugSession, show: ShowNode): Promise<void> {
  switch (action.kind) {
    case 'break':
      vscode.debug.addBreakpoints([new vscode.FunctionBreakpoint(`${VARIABLE_BREAKPOINT_PREFIX}${variable.name}`, true, action.condition)]);
      void vscode.window.setStatusBarMessage(
        `Breaks when tf.Variable '${variable.name}' ${action.condition ? 'becomes NaN/Inf' : 'is assigned'} (Breakpoints view)`,
        5000,
      );
      return;
    case 'inspect':
      return show(session, variableNode(variable));
    case 'pin':
      await vscode.commands.executeCommand('tfjsCallbacks.pinExpression', { evaluateName: variableExpression(variable.name) });
      return;
    case 'copy':
      await vscode.env.clipboard.writeText(variableExpression(variable.name));
      void vscode.window.setStatusBarMessage(`Copied ${variableExpression(variable.name)}`, 4000);
      return;
  }
}
