/**
 * The `exceptionInfo` answer for an exception stop. VS Code's exception widget shows `description`
 * and `details.stackTrace`, never `details.message`: so the description holds the whole message,
 * a Tout mismatch's fix hint included ("… Return float32 data (…) or declare Tout 'float64'."), and
 * a thrown error's frames go to `stackTrace` (its message lines once, in the description).
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Stop } from '../state/pause-state.js';

/** A V8 stack's frame line: `    at f (file:1:2)`. */
const STACK_LINE = /^\s+at /m;

/**
 * A stack's frames, without the message lines above them when the description says the same: the
 * widget shows both, and a callback's TypeError read twice over its first frame.
 */
function framesAfter(stack: string, description: string): string {
  const first = stack.search(STACK_LINE);
  const head = stack.slice(0, first).trim();
  return head !== '' && description.trim().endsWith(head) ? stack.slice(first) : stack;
}

export function exceptionInfoBody(exception: Stop['exception'] | undefined): DebugProtocol.ExceptionInfoResponse['body'] {
  if (!exception) return { exceptionId: 'unknown', description: '', breakMode: 'always' };
  const details = exception.details;
  const isStack = details !== undefined && STACK_LINE.test(details);
  // A message's first line is the description's (in other words: "Tout mismatch in f: …"); the rest is added to it.
  const rest = details !== undefined && !isStack ? details.split('\n').slice(1).join('\n') : '';
  const description = rest.trim() ? `${exception.description}\n${rest}` : exception.description;
  return {
    exceptionId: exception.id,
    description,
    breakMode: exception.breakMode ?? 'always',
    details: {
      // TensorFlow's own words, whole (a thrown error: its message; its stack is stackTrace).
      message: isStack || details === undefined ? description : details,
      typeName: exception.id,
      ...(isStack ? { stackTrace: framesAfter(details, description) } : {}),
    },
  };
}
