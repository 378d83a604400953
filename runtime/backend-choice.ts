/**
 * The backends a user can ask for, and reading that choice: no TensorFlow.js here, so the CLI can
 * read its arguments before the project's tfjs is loaded.
 */
export type BackendName = 'tensorflow' | 'wasm' | 'cpu';
export type BackendChoice = 'auto' | BackendName;
export const BACKEND_CHOICES: readonly BackendChoice[] = ['auto', 'tensorflow', 'wasm', 'cpu'];

export function parseChoice(value: string, where: string): BackendChoice {
  const choice = value.trim().toLowerCase();
  if ((BACKEND_CHOICES as readonly string[]).includes(choice)) return choice as BackendChoice;
  throw new Error(`${where}=${JSON.stringify(value)} is not a backend: use one of ${BACKEND_CHOICES.join(', ')}.`);
}
