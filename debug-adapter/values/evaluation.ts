/**
 * What an evaluate may cost and how its failure reads: a time limit per context (a REPL line may
 * compute; a hover or a watch must not hold the UI), and the thrown value itself in the message,
 * whatever was thrown (`throw "boom"` reads "Uncaught 'boom'", not just "Uncaught").
 */
import type { Protocol } from 'devtools-protocol';

/** REPL and clipboard evaluations: the user asked for that work. */
export const REPL_EVALUATION_TIMEOUT_MS = 10_000;
/** Watches, hovers and the rest, evaluated on every stop. */
export const QUIET_EVALUATION_TIMEOUT_MS = 5_000;
/** A thrown value's text is cut here: an Error's message may be a whole dump. */
const MAX_TEXT = 1000;

export function evaluationTimeoutMs(context: string | undefined): number {
  return context === 'repl' || context === 'clipboard' ? REPL_EVALUATION_TIMEOUT_MS : QUIET_EVALUATION_TIMEOUT_MS;
}

/** "Uncaught <the thrown value>": an Error's first line, a string quoted, an object's preview. */
export function evaluationError(details: Protocol.Runtime.ExceptionDetails): string {
  const thrown = details.exception;
  if (!thrown) return cut(details.text);
  return `Uncaught ${cut(thrownText(thrown))}`;
}

function thrownText(v: Protocol.Runtime.RemoteObject): string {
  if (v.subtype === 'error') return (v.description ?? v.className ?? 'Error').split('\n')[0]!;
  if (v.type === 'string') return `'${String(v.value)}'`;
  if (v.type !== 'object' || v.subtype === 'null') return v.unserializableValue ?? v.description ?? String(v.value);
  const preview = v.preview;
  if (!preview?.properties) return v.description ?? v.className ?? 'Object';
  const isArray = v.subtype === 'array';
  const items = preview.properties.map((p) => (isArray ? value(p) : `${p.name}: ${value(p)}`));
  if (preview.overflow) items.push('…');
  const body = items.join(', ');
  if (isArray) return `[${body}]`;
  const label = v.className && v.className !== 'Object' ? `${v.className} ` : '';
  return `${label}{${body}}`;
}

function value(p: Protocol.Runtime.PropertyPreview): string {
  if (p.type === 'string') return `'${p.value ?? ''}'`;
  return p.value ?? p.type;
}

function cut(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}… (${text.length} characters)` : text;
}
