/**
 * Launch and attach arguments of the `tfjs-callbacks` debug type, with their defaults and checks.
 * The extension's JSON schema describes the same fields.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';

export type BackendOption = 'auto' | 'tensorflow' | 'wasm' | 'cpu';

export interface LaunchArguments extends DebugProtocol.LaunchRequestArguments {
  /** The graph program (TS runs through tsx with source maps, or JS). */
  program?: string;
  args?: string[];
  cwd?: string;
  env?: Record<string, string | null>;
  backend?: BackendOption;
  stopOnEntry?: boolean;
  /** Callback names, tokens, function or node names to stop in; "*" for every callback. */
  breakOnCallbacks?: string[] | '*';
  breakOnToutMismatch?: boolean;
  breakOnNonFinite?: boolean;
  /** Debug a graph model without writing a program: model.json, its callbacks module, inputs. */
  model?: string;
  callbacks?: string;
  inputs?: string;
}

export interface AttachArguments extends DebugProtocol.AttachRequestArguments {
  port: number;
  host?: string;
  breakOnCallbacks?: string[] | '*';
  breakOnToutMismatch?: boolean;
  breakOnNonFinite?: boolean;
}

export interface LaunchPlan {
  readonly cwd: string;
  /** The script node runs: the program, or the runtime CLI for a model. */
  readonly entry: string;
  readonly args: readonly string[];
  readonly env: Record<string, string>;
  readonly stopOnEntry: boolean;
  readonly filters: FilterConfig;
  /** The user's own code the launch runs first: the program, or a model's callbacks module. */
  readonly userCode: readonly string[];
}

export interface FilterConfig {
  readonly breakOnCallbacks: string[];
  readonly breakOnToutMismatch: boolean;
  readonly breakOnNonFinite: boolean;
}

export class ConfigurationError extends Error {}

export function filtersOf(args: { breakOnCallbacks?: string[] | '*'; breakOnToutMismatch?: boolean; breakOnNonFinite?: boolean }): FilterConfig {
  const callbacks = args.breakOnCallbacks === '*' ? ['*'] : (args.breakOnCallbacks ?? []);
  if (!Array.isArray(callbacks) || callbacks.some((c) => typeof c !== 'string')) {
    throw new ConfigurationError('breakOnCallbacks must be "*" or a list of callback names or tokens.');
  }
  return { breakOnCallbacks: callbacks, breakOnToutMismatch: args.breakOnToutMismatch ?? true, breakOnNonFinite: args.breakOnNonFinite ?? false };
}

/** Resolves paths against cwd and checks that what must exist does. `cliEntry` runs models. */
export function planLaunch(args: LaunchArguments, cliEntry: string): LaunchPlan {
  const cwd = path.resolve(args.cwd ?? (args.program ? path.dirname(path.resolve(args.program)) : process.cwd()));
  if (!existsSync(cwd)) throw new ConfigurationError(`cwd ${cwd} does not exist.`);
  const resolve = (p: string) => path.resolve(cwd, p);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(args.env ?? {})) if (v !== null && v !== undefined) env[k] = String(v);
  if (args.backend) {
    if (!['auto', 'tensorflow', 'wasm', 'cpu'].includes(args.backend)) {
      throw new ConfigurationError(`backend "${args.backend}" is not one of auto, tensorflow, wasm, cpu.`);
    }
    env.TFJS_BACKEND = args.backend;
  }
  const removed = Object.entries(args.env ?? {}).filter(([, v]) => v === null).map(([k]) => k);
  for (const k of removed) env[k] = '';
  const filters = filtersOf(args);
  if (args.model) {
    if (args.program) throw new ConfigurationError('Give either program or model, not both.');
    const model = mustExist(resolve(args.model), 'model');
    const cliArgs = ['run', model];
    const callbacks = args.callbacks ? mustExist(resolve(args.callbacks), 'callbacks') : undefined;
    if (callbacks) cliArgs.push('--callbacks', callbacks);
    if (args.inputs) cliArgs.push('--inputs', mustExist(resolve(args.inputs), 'inputs'));
    return { cwd, entry: cliEntry, args: cliArgs, env, stopOnEntry: false, filters, userCode: callbacks ? [callbacks] : [] };
  }
  if (!args.program) throw new ConfigurationError('Set "program" to the graph program to debug (or "model" to a model.json).');
  if (args.callbacks || args.inputs) throw new ConfigurationError('"callbacks" and "inputs" apply to a "model" launch.');
  const entry = mustExist(resolve(args.program), 'program');
  return { cwd, entry, args: args.args ?? [], env, stopOnEntry: args.stopOnEntry ?? false, filters, userCode: [entry] };
}

function mustExist(file: string, what: string): string {
  if (!existsSync(file)) throw new ConfigurationError(`${what} ${file} does not exist.`);
  return file;
}
