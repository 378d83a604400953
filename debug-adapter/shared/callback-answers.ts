/**
 * Which names a callback answers to (a function breakpoint's or a `breakOnCallbacks` entry's): its
 * name, token, JS function name, node name, or the node name's last part, its name in TensorFlow
 * (StatefulPartitionedCall/log_huber: log_huber). The agent decides stops by it; the adapter
 * (breakpoints/callback-names.ts) lists the same names in its warnings. A leaf.
 */

/** A callback as the names it answers to (runtime/events.ts KnownCallback, agent-protocol.ts KnownCallbackInfo). */
export interface CallbackNames {
  readonly name: string;
  readonly token: string;
  readonly functionName?: string | undefined;
  readonly node?: string | undefined;
}

/** A node name's last part: its name in TensorFlow. */
export const lastPart = (node: string): string => node.slice(node.lastIndexOf('/') + 1);

/** Whether a callback answers to `wanted`. */
export const answersTo = (wanted: string, c: CallbackNames): boolean =>
  wanted === c.name ||
  wanted === c.token ||
  (c.functionName !== undefined && wanted === c.functionName) ||
  (c.node !== undefined && (wanted === c.node || wanted === lastPart(c.node)));

/** Every name a callback answers to. */
export function namesOf(c: CallbackNames): string[] {
  const names = [c.name, c.token];
  if (c.functionName) names.push(c.functionName);
  if (c.node) names.push(c.node, lastPart(c.node));
  return names;
}

/** One key per distinct callback (the same function bound again is told again). */
export const knownKey = (c: CallbackNames): string => `${c.name}\u0000${c.token}\u0000${c.functionName ?? ''}\u0000${c.node ?? ''}`;
