/**
 * The `tfjs-callbacks` debug type: the adapter, run inside the extension host as js-debug's is (no
 * process to start on F5), and the configuration provider that lets F5 work with no launch.json
 * and refuses to launch in an untrusted workspace.
 */
import * as vscode from 'vscode';
import { DEBUG_TYPE, resolveConfiguration, resolveSubstituted, type DebugConfig } from './config-resolution.js';
import { editorContext } from './editor-context.js';
import { pathToFileURL } from 'node:url';
import type * as Adapter from '../debug-adapter/main.js';
import { extensionPaths } from './paths.js';
import { mark } from '../debug-adapter/debuggee/timeline.js';

/** `viewedModel`: the model.json the Graph View shows while it is the active tab, for F5 there with no launch.json. */
export function registerDebugWiring(context: vscode.ExtensionContext, viewedModel: () => string | undefined): void {
  const paths = extensionPaths(context);
  let adapter: Promise<typeof Adapter> | undefined;
  // The adapter is an ES module (dist/debug-adapter/main.js, also run as a program by other
  // editors); imported, it starts nothing. Loaded once, off F5's path when the host is idle. (A
  // non-literal import() stays a native one in the CommonJS bundle.)
  const loadAdapter = () => (adapter ??= import(pathToFileURL(paths.adapter).href) as Promise<typeof Adapter>);
  const warm = setTimeout(() => void loadAdapter().catch(() => undefined), ADAPTER_WARM_DELAY_MS);
  context.subscriptions.push(
    { dispose: () => clearTimeout(warm) },
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, {
      createDebugAdapterDescriptor: async () => {
        mark('extension: create adapter');
        return new vscode.DebugAdapterInlineImplementation((await loadAdapter()).createInlineSession());
      },
    }),
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, {
      resolveDebugConfiguration(folder, config) {
        mark('extension: resolve configuration');
        const resolution = resolveConfiguration(config as DebugConfig, editorContext(folder, viewedModel()));
        if ('error' in resolution) {
          void vscode.window.showErrorMessage(resolution.error);
          return undefined;
        }
        return resolution.config as vscode.DebugConfiguration;
      },
      resolveDebugConfigurationWithSubstitutedVariables(folder, config) {
        mark('extension: resolve substituted configuration');
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

/** After activation, once the editor has settled: the adapter's load (~30 ms) then costs no F5 anything. */
const ADAPTER_WARM_DELAY_MS = 3000;
