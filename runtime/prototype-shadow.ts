/**
 * Shadowing a method on a prototype while a watch is on (op-watch/training-context.ts, training/fit-logs.ts):
 * each call goes through `around`, which makes the call; the undo puts the method back as it was
 * (its own property again, or none, so the inherited one shows through).
 */
export type Around = (self: unknown, call: () => unknown, args: unknown[]) => unknown;

/** Shadows `proto[name]` (when it is a function) and pushes its undo onto `restore`. */
export function shadowMethod(proto: Record<string, unknown>, name: string, around: Around, restore: (() => void)[]): void {
  const original = proto[name];
  if (typeof original !== 'function') return;
  const had = Object.hasOwn(proto, name);
  proto[name] = function (this: unknown, ...args: unknown[]) {
    return around(this, () => (original as (...a: unknown[]) => unknown).apply(this, args), args);
  };
  restore.push(() => {
    if (had) proto[name] = original;
    else delete proto[name];
  });
}
