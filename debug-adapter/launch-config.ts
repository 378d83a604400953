/**
 * Launch and attach arguments of the `tfjs-callbacks` debug type, with their defaults and checks.
 * The extension's JSON schema describes the same fields.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { BACKEND_CHOICES, type BackendChoice } from '../runtime/backend-choice.js';
import { checkProjectTfjs } from '../runtime/tfjs-version.js';
import { skipFilesOption } from './sources/skip-files.js';
import type { OpBirthIgnore } from './debuggee/agent-protocol.js';
import type { ProgramStart } from './debuggee/launcher.js';

export type BackendOption = BackendChoice;

export interface LaunchArguments extends DebugProtocol.LaunchRequestArguments {
  /** The graph program (TS runs through tsx with source maps, or JS). */
  program?: string;
  args?: string[];
  /** Node's options before the program (`-r @babel/register`, `--import ./setup.mjs`, `--loader ts-node/esm`), as `node <runtimeArgs> <program>`. */
  runtimeArgs?: string[];
  cwd?: string;
  env?: Record<string, string | null>;
  backend?: BackendOption;
  stopOnEntry?: boolean;
  /** Callback names, tokens, function or node names to stop in; "*" for every callback. */
  breakOnCallbacks?: string[] | '*';
  breakOnToutMismatch?: boolean;
  breakOnNonFinite?: boolean;
  breakOnGraphNonFinite?: boolean;
  /** Stop at the first TF.js op whose outputs hold NaN/Inf from finite inputs (op-watch). */
  breakOnOpNonFinite?: boolean;
  /** Debug a graph model without writing a program: model.json, its callbacks module, inputs. */
  model?: string;
  callbacks?: string;
  inputs?: string;
  /** Files steps pass over, in js-debug's syntax (sources/skip-files.ts); by default Node's internals and every package. */
  skipFiles?: string[];
}

export interface AttachArguments extends DebugProtocol.AttachRequestArguments {
  port: number;
  host?: string;
  breakOnCallbacks?: string[] | '*';
  breakOnToutMismatch?: boolean;
  breakOnNonFinite?: boolean;
  breakOnGraphNonFinite?: boolean;
  /** Stop at the first TF.js op whose outputs hold NaN/Inf from finite inputs (op-watch). */
  breakOnOpNonFinite?: boolean;
  skipFiles?: string[];
}

/** A launch, planned from its arguments: what the launcher starts and what the session keeps. */
export interface LaunchPlan extends ProgramStart {
  readonly stopOnEntry: boolean;
  readonly filters: FilterConfig;
  /** launch.json's skipFiles; undefined: the defaults. */
  readonly skipFiles?: readonly string[];
}

export interface FilterConfig {
  readonly breakOnCallbacks: string[];
  readonly breakOnToutMismatch: boolean;
  readonly breakOnNonFinite: boolean;
  /** Stop at the first graph node whose outputs hold NaN/Inf from finite inputs. */
  readonly breakOnGraphNonFinite: boolean;
  /** Stop at the first TF.js op (any kernel, a tensor made from data) whose outputs hold NaN/Inf from finite inputs. */
  readonly breakOnOpNonFinite: boolean;
  /** The `opNonFinite` filter's condition (the Breakpoints view's *Edit Condition*). */
  readonly opNonFiniteCondition?: string;
  /** Births dismissed for the session (the `ignoreOpBirth` request). */
  readonly opNonFiniteIgnored?: OpBirthIgnore[];
}

export class ConfigurationError extends Error {}

export function filtersOf(args: {
  breakOnCallbacks?: string[] | '*';
  breakOnToutMismatch?: boolean;
  breakOnNonFinite?: boolean;
  breakOnGraphNonFinite?: boolean;
  /** Stop at the first TF.js op whose outputs hold NaN/Inf from finite inputs (op-watch). */
  breakOnOpNonFinite?: boolean;
}): FilterConfig {
  const callbacks = args.breakOnCallbacks === '*' ? ['*'] : (args.breakOnCallbacks ?? []);
  if (!Array.isArray(callbacks) || callbacks.some((c) => typeof c !== 'string')) {
    throw new ConfigurationError('breakOnCallbacks must be "*" or a list of callback names or tokens.');
  }
  for (const key of ['breakOnToutMismatch', 'breakOnNonFinite', 'breakOnGraphNonFinite', 'breakOnOpNonFinite'] as const) {
    const value = args[key];
    if (value !== undefined && typeof value !== 'boolean') throw new ConfigurationError(`"${key}" must be true or false, not ${JSON.stringify(value)}.`);
  }
  return {
    breakOnCallbacks: callbacks,
    breakOnToutMismatch: args.breakOnToutMismatch ?? true,
    breakOnNonFinite: args.breakOnNonFinite ?? false,
    breakOnGraphNonFinite: args.breakOnGraphNonFinite ?? false,
    breakOnOpNonFinite: args.breakOnOpNonFinite ?? false,
  };
}

/**
 * Resolves paths against cwd (without one: against the adapter's working directory, and cwd is the
 * program's folder) and checks that what must exist does. `cliEntry` runs models.
 */
/**
 * The launch to make, or a ConfigurationError saying what is wrong; a project on a TF.js version
 * the runtime does not support is refused with the version, the range and what to do.
 */
export function planLaunch(args: LaunchArguments, cliEntry: string): LaunchPlan {
  const plan = planFor(args, cliEntry);
  // Where the program's packages are looked up (launcher.ts TFJS_CALLBACKS_PROJECT_DIR).
  const tfjs = checkProjectTfjs(plan.userCode[0] ? path.dirname(plan.userCode[0]) : plan.cwd);
  if (!tfjs.ok) throw new ConfigurationError(tfjs.message);
  return plan;
}

function planFor(args: LaunchArguments, cliEntry: string): LaunchPlan {
  checkTypes(args);
  const base = path.resolve(args.cwd ?? process.cwd());
  const cwd = args.cwd !== undefined || !args.program ? base : path.dirname(path.resolve(base, args.program));
  if (!existsSync(cwd)) throw new ConfigurationError(`cwd ${cwd} does not exist.`);
  const resolve = (p: string) => path.resolve(base, p);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(args.env ?? {})) if (v !== null && v !== undefined) env[k] = String(v);
  if (args.backend) {
    if (!(BACKEND_CHOICES as readonly string[]).includes(args.backend)) {
      throw new ConfigurationError(`backend "${args.backend}" is not one of ${BACKEND_CHOICES.join(', ')}.`);
    }
    env.TFJS_BACKEND = args.backend;
  }
  const removed = Object.entries(args.env ?? {})
    .filter(([, v]) => v === null)
    .map(([k]) => k);
  const filters = filtersOf(args);
  const skipFiles = skipFilesOf(args);
  const skips = skipFiles ? { skipFiles } : {};
  if (args.model) {
    if (args.program) throw new ConfigurationError('Give either program or model, not both.');
    const model = mustExist(resolve(args.model), 'model');
    const cliArgs = ['run', model];
    const callbacks = args.callbacks ? mustExist(resolve(args.callbacks), 'callbacks') : undefined;
    if (callbacks) cliArgs.push('--callbacks', callbacks);
    if (args.inputs) cliArgs.push('--inputs', mustExist(resolve(args.inputs), 'inputs'));
    return {
      cwd,
      entry: cliEntry,
      args: cliArgs,
      runtimeArgs: args.runtimeArgs ?? [],
      env,
      envRemoved: removed,
      stopOnEntry: false,
      filters,
      userCode: callbacks ? [callbacks] : [],
      ...skips,
    };
  }
  if (!args.program) throw new ConfigurationError('Set "program" to the graph program to debug (or "model" to a model.json).');
  if (args.callbacks || args.inputs) throw new ConfigurationError('"callbacks" and "inputs" apply to a "model" launch.');
  const entry = mustExist(resolve(args.program), 'program');
  return {
    cwd,
    entry,
    args: args.args ?? [],
    runtimeArgs: args.runtimeArgs ?? [],
    env,
    envRemoved: removed,
    stopOnEntry: args.stopOnEntry ?? false,
    filters,
    userCode: [entry],
    ...skips,
  };
}

/** The launch arguments JSON can get wrong: a wrong type here would fail later and less clearly (a string `args` spread into letters). */
function checkTypes(args: LaunchArguments): void {
  for (const key of ['program', 'cwd', 'model', 'callbacks', 'inputs', 'backend'] as const) {
    if (args[key] !== undefined && typeof args[key] !== 'string') throw new ConfigurationError(`"${key}" must be a string, not ${JSON.stringify(args[key])}.`);
  }
  for (const key of ['args', 'runtimeArgs'] as const) {
    const list = args[key];
    if (list !== undefined && (!Array.isArray(list) || list.some((a) => typeof a !== 'string'))) {
      throw new ConfigurationError(`"${key}" must be a list of strings, not ${JSON.stringify(list)}.`);
    }
  }
  if (args.env !== undefined && (typeof args.env !== 'object' || args.env === null || Array.isArray(args.env))) {
    throw new ConfigurationError(`"env" must be an object of variable names to strings (null removes one), not ${JSON.stringify(args.env)}.`);
  }
  for (const [k, v] of Object.entries(args.env ?? {})) {
    if (typeof v === 'object' && v !== null) throw new ConfigurationError(`env "${k}" must be a string (or null to remove it), not ${JSON.stringify(v)}.`);
  }
  if (args.stopOnEntry !== undefined && typeof args.stopOnEntry !== 'boolean') {
    throw new ConfigurationError(`"stopOnEntry" must be true or false, not ${JSON.stringify(args.stopOnEntry)}.`);
  }
}

/** launch.json's skipFiles, checked (sources/skip-files.ts); undefined when not given. */
export function skipFilesOf(args: { skipFiles?: unknown }): string[] | undefined {
  try {
    return skipFilesOption(args.skipFiles);
  } catch (err) {
    throw new ConfigurationError((err as Error).message);
  }
}

function mustExist(file: string, what: string): string {
  if (!existsSync(file)) throw new ConfigurationError(`${what} ${file} does not exist.`);
  return file;
}
