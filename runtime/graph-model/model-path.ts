/**
 * Which files are TF.js graph models for the tools (F5, Run Graph, the language server): the one
 * answer, free of TensorFlow.js so the editor side can use it.
 */

/** `model.json`, or any `*.model.json` (converters and users name several models in one folder). */
export function isModelJsonPath(file: string): boolean {
  const name = file.split(/[/\\]/).pop() ?? '';
  return /^(.+\.)?model\.json$/i.test(name);
}
