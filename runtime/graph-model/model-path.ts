/**
 * Which files are TF.js graph models, and where a model's callbacks module is, for the tools (F5,
 * Run Graph, the language server): the one answer, free of TensorFlow.js and of any file system
 * access of its own, so the editor side can use it.
 */
import path from 'node:path';

/** `model.json`, or any `*.model.json` (converters and users name several models in one folder). */
export function isModelJsonPath(file: string): boolean {
  const name = file.split(/[/\\]/).pop() ?? '';
  return /^(.+\.)?model\.json$/i.test(name);
}

/**
 * A target named explicitly (`tfjs-callbacks run x.json`): any JSON file is run as a model, since
 * the user said which file; isModelJsonPath is for the tools that find models on their own.
 */
export function isModelTarget(file: string): boolean {
  return file.toLowerCase().endsWith('.json');
}

/** The names a model's callbacks module has by convention beside its model.json, the first found wins. */
export const CALLBACKS_MODULE_NAMES: readonly string[] = ['callbacks.ts', 'callbacks.js', 'callbacks.mts', 'callbacks.mjs', 'callbacks.cjs'];

/** The first conventional callbacks module beside `modelFile` that `exists`. */
export function conventionalCallbacksModule(modelFile: string, exists: (file: string) => boolean): string | undefined {
  const dir = path.dirname(modelFile);
  for (const name of CALLBACKS_MODULE_NAMES) {
    const file = path.join(dir, name);
    if (exists(file)) return file;
  }
  return undefined;
}

/**
 * The `tfjsCallbacks.callbacksModule` setting as a path: relative to the workspace folder (else to
 * the model's folder), or absolute; undefined when it is unset or blank.
 */
export function callbacksModuleSetting(modelFile: string, setting: string | undefined, workspaceFolder: string | undefined): string | undefined {
  const trimmed = setting?.trim();
  return trimmed ? path.resolve(workspaceFolder ?? path.dirname(modelFile), trimmed) : undefined;
}
