/**
 * The `tfjs-callbacks` debug type: the adapter executable, and the configuration provider that
 * lets F5 work with no launch.json and refuses to launch in an untrusted workspace.
 */
import * as vscode from 'vscode';
import { DEBUG_TYPE, resolveConfiguration, resolveSubstituted, type DebugConfig } from './config-resolution.js';
import { editorContext } from './editor-context.js';
import { NODE_ENV, extensionPaths } from './paths.js';

export function registerDebugWiring(context: vscode.ExtensionContext): void {
  const paths = extensionPaths(context);
  context.subscriptions.push(
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, {
      createDebugAdapterDescriptor: () => new vscode.DebugAdapterExecutable(process.execPath, [paths.adapter], { env: NODE_ENV }),
    }),
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, {
      resolveDebugConfiguration(folder, config) {
        const resolution = resolveConfiguration(config as DebugConfig, editorContext(folder));
        if ('error' in resolution) {
          void vscode.window.showErrorMessage(resolution.error);
          return undefined;
        }
        return resolution.config as vscode.DebugConfiguration;
      },
      resolveDebugConfigurationWithSubstitutedVariables(folder, config) {
        return resolveSubstituted(config as DebugConfig, editorContext(folder)) as vscode.DebugConfiguration;
      },
    }),
    vscode.debug.registerDebugConfigurationProvider(
      DEBUG_TYPE,
      {
        provideDebugConfigurations(folder) {
          const ctx = editorContext(folder);
          return [
            { type: DEBUG_TYPE, request: 'launch', name: 'Debug graph program', program: '${file}', cwd: '${workspaceFolder}', backend: ctx.backend },
            {
              type: DEBUG_TYPE,
              request: 'launch',
              name: 'Debug model callbacks',
              model: '${workspaceFolder}/model.json',
              callbacks: '${workspaceFolder}/callbacks.ts',
            },
          ];
        },
      },
      vscode.DebugConfigurationProviderTriggerKind.Dynamic,
    ),
  );
}
