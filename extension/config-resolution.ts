/**
 * How a debug configuration is completed and checked before a session starts: F5 with no
 * launch.json on a TS/JS graph program or a model.json, defaults from the settings, and workspace
 * trust. Free of the vscode API so it is unit-tested directly.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { BACKEND_CHOICES, type BackendChoice } from '../runtime/backend-choice.js';
import { callbacksModuleSetting, conventionalCallbacksModule, isModelJsonPath } from '../runtime/graph-model/model-path.js';

export const DEBUG_TYPE = 'tfjs-callbacks';
/** The backends a configuration, the setting and the quick pick offer: the runtime's list (package.json's enums are checked against it). */
export const BACKENDS = BACKEND_CHOICES;
export type Backend = BackendChoice;

export interface DebugConfig {
  type?: string;
  request?: string;
  name?: string;
  program?: string;
  model?: string;
  callbacks?: string;
  inputs?: string;
  cwd?: string;
  backend?: string;
  port?: number;
  host?: string;
  [key: string]: unknown;
}

export interface EditorContext {
  /** The file in the active editor, if any. */
  readonly activeFile?: string;
  /** The model.json the Graph View shows while it is the active tab (no text editor is active then): F5 there debugs it. */
  readonly viewedModel?: string;
  readonly workspaceFolder?: string;
  readonly trusted: boolean;
  /** The `tfjsCallbacks.backend` setting. */
  readonly backend: Backend;
  /** The `tfjsCallbacks.callbacksModule` setting (relative to the workspace folder or absolute). */
  readonly callbacksModule?: string;
}

export type Resolution = { readonly config: DebugConfig } | { readonly error: string };

const PROGRAM_EXTENSIONS = ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs'];

export function isGraphProgram(file: string): boolean {
  return PROGRAM_EXTENSIONS.includes(path.extname(file)) && !file.endsWith('.d.ts');
}

export const isModelJson = isModelJsonPath;

/** The callbacks module for a model: the setting, else the first conventional name beside it (as the language server finds it). */
export function callbacksModuleFor(model: string, context: Pick<EditorContext, 'callbacksModule' | 'workspaceFolder'>): string | undefined {
  return callbacksModuleSetting(model, context.callbacksModule, context.workspaceFolder) ?? conventionalCallbacksModule(model, existsSync);
}

export const UNTRUSTED_MESSAGE =
  'TF.js Graph Callbacks does not run programs in an untrusted workspace: running a graph program executes its code. ' +
  'Trust this workspace (command "Workspaces: Manage Workspace Trust") to run or debug it.';

/** A launch configuration for a file: a graph program, or a model with its callbacks. */
export function configurationForFile(file: string, context: EditorContext): Resolution {
  if (isModelJson(file)) {
    const callbacks = callbacksModuleFor(file, context);
    return {
      config: {
        type: DEBUG_TYPE,
        request: 'launch',
        name: `Debug ${path.join(path.basename(path.dirname(file)), path.basename(file))}`,
        model: file,
        ...(callbacks ? { callbacks } : {}),
        cwd: context.workspaceFolder ?? path.dirname(file),
        backend: context.backend,
      },
    };
  }
  if (isGraphProgram(file)) {
    return {
      config: {
        type: DEBUG_TYPE,
        request: 'launch',
        name: `Debug ${path.basename(file)}`,
        program: file,
        cwd: context.workspaceFolder ?? path.dirname(file),
        backend: context.backend,
      },
    };
  }
  return { error: `${path.basename(file)} is neither a TS/JS graph program nor a model.json.` };
}

/** Completes and checks a configuration (resolveDebugConfiguration). */
export function resolveConfiguration(config: DebugConfig, context: EditorContext): Resolution {
  if (!context.trusted) return { error: UNTRUSTED_MESSAGE };
  const empty = !config.type && !config.request && !config.name;
  const file = context.activeFile ?? context.viewedModel;
  if (empty) {
    if (!file) return { error: 'Open a TS/JS graph program or a model.json, or add a "tfjs-callbacks" launch configuration.' };
    return configurationForFile(file, context);
  }
  if (config.type !== DEBUG_TYPE) return { config };
  const request = config.request ?? 'launch';
  if (request === 'attach') {
    // A Debug Terminal's process (debug-terminal.ts): complete as the extension made it.
    if (config.terminal !== undefined) return { config };
    if (typeof config.port !== 'number') return { error: 'An attach configuration needs "port": the --inspect port of the program.' };
    return { config: { ...config, request, name: config.name ?? 'Attach to graph program', host: config.host ?? '127.0.0.1' } };
  }
  if (request !== 'launch') return { error: `Unknown request "${request}": use "launch" or "attach".` };
  if (!config.program && !config.model) {
    if (file) {
      const fromFile = configurationForFile(file, context);
      if ('config' in fromFile) {
        return { config: { ...fromFile.config, ...stripUndefined(config), program: fromFile.config.program, model: fromFile.config.model } };
      }
    }
    return { error: 'Set "program" (a TS/JS graph program) or "model" (a model.json) in the launch configuration.' };
  }
  if (config.backend !== undefined && !(BACKENDS as readonly string[]).includes(config.backend)) {
    return { error: `"backend": "${config.backend}" is not one of ${BACKENDS.join(', ')}.` };
  }
  const model = config.model;
  const callbacks = config.callbacks ?? (model ? callbacksModuleFor(model, context) : undefined);
  return {
    config: {
      ...config,
      request,
      name: config.name ?? 'Debug graph',
      backend: config.backend ?? context.backend,
      cwd: config.cwd ?? context.workspaceFolder,
      ...(callbacks ? { callbacks } : {}),
    },
  };
}

/**
 * After VS Code substituted `${workspaceFolder}` and the like: a model launch with no `callbacks`
 * gets the callbacks module beside the model (resolveConfiguration runs before substitution, when
 * a path such as `${workspaceFolder}/m/model.json` cannot be looked at yet).
 */
export function resolveSubstituted(config: DebugConfig, context: Pick<EditorContext, 'callbacksModule' | 'workspaceFolder'>): DebugConfig {
  if (config.type !== DEBUG_TYPE || config.request !== 'launch' || !config.model || config.callbacks) return config;
  const callbacks = callbacksModuleFor(config.model, context);
  return callbacks ? { ...config, callbacks } : config;
}

function stripUndefined(config: DebugConfig): DebugConfig {
  return Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined && v !== null));
}

/**
 * The CLI's arguments for "Run Graph" on a file; `preloads` (runtimePreloads) before it, as the CLI
 * takes Node's (`run -r @babel/register train.js`).
 */
export function runArguments(file: string, traceFile: string, context: EditorContext, preloads: readonly string[] = []): string[] {
  const args = ['run', ...(isModelJson(file) ? [] : preloads), file, '--trace', traceFile, '--backend', context.backend];
  if (isModelJson(file)) {
    const callbacks = callbacksModuleFor(file, context);
    if (callbacks) args.push('--callbacks', callbacks);
  }
  return args;
}

/**
 * The `runtimeArgs` of the workspace's launch configuration for `file` (ours, `request: launch`,
 * its `program` that file once `${workspaceFolder}` and `${file}` are put in): Run Graph preloads
 * what F5 would (issue 43: a babel program ran under F5 and failed under Run Graph).
 */
export function launchRuntimeArgs(file: string, configurations: readonly DebugConfig[], workspaceFolder: string | undefined): string[] {
  const config = launchConfigurationFor(file, configurations, workspaceFolder, 'program');
  const runtimeArgs = config?.runtimeArgs;
  if (!Array.isArray(runtimeArgs)) return [];
  return runtimeArgs.filter((a): a is string => typeof a === 'string').map((a) => substituteFile(a, file, workspaceFolder));
}

/**
 * The workspace's first launch configuration of ours whose `program` (or `model`) is `file` once
 * `${workspaceFolder}` and `${file}` are put in: F5 on the Graph View starts it, so its `inputs`
 * and settings apply.
 */
export function launchConfigurationFor(
  file: string,
  configurations: readonly DebugConfig[],
  workspaceFolder: string | undefined,
  key: 'program' | 'model',
): DebugConfig | undefined {
  return configurations.find((config) => {
    const target = config[key];
    if (config.type !== DEBUG_TYPE || config.request !== 'launch' || typeof target !== 'string') return false;
    return path.resolve(workspaceFolder ?? path.dirname(file), substituteFile(target, file, workspaceFolder)) === path.resolve(file);
  });
}

function substituteFile(text: string, file: string, workspaceFolder: string | undefined): string {
  return text.replace(/\$\{(workspaceFolder|workspaceRoot|file)\}/g, (_, name: string) => (name === 'file' ? file : (workspaceFolder ?? '')));
}

/** Node's options the CLI takes before the program. */
const PRELOAD_FLAGS = ['-r', '--require', '--import', '--loader', '--experimental-loader'];

/** runtimeArgs split into Node's preloads, which the CLI passes on in order, and the rest (V8 flags), which it does not take. */
export function runtimePreloads(runtimeArgs: readonly string[]): { preloads: string[]; ignored: string[] } {
  const preloads: string[] = [];
  const ignored: string[] = [];
  for (let i = 0; i < runtimeArgs.length; i++) {
    const arg = runtimeArgs[i]!;
    const flag = arg.split('=')[0]!;
    if (!PRELOAD_FLAGS.includes(flag)) ignored.push(arg);
    else if (arg.includes('=') || i + 1 >= runtimeArgs.length) preloads.push(arg);
    else preloads.push(arg, runtimeArgs[++i]!);
  }
  return { preloads, ignored };
}
