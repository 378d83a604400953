/**
 * The backends a user can ask for, and reading that choice: no TensorFlow.js here, so the CLI can
 * read its arguments before the project's tfjs is loaded.
 */
/** What `auto` tries, in order. */
export const BACKEND_NAMES = ['tensorflow', 'wasm', 'cpu'] as const;
export type BackendName = (typeof BACKEND_NAMES)[number];
export const BACKEND_CHOICES = ['auto', ...BACKEND_NAMES] as const;
export type BackendChoice = (typeof BACKEND_CHOICES)[number];

export function parseChoice(value: string, where: string): BackendChoice {
  const choice = value.trim().toLowerCase();
  if ((BACKEND_CHOICES as readonly string[]).includes(choice)) return choice as BackendChoice;
  throw new Error(`${where}=${JSON.stringify(value)} is not a backend: use one of ${BACKEND_CHOICES.join(', ')}.`);
}
