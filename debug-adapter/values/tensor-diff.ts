/**
 * The `tensorDiff` request (extension-protocol.ts): one input or output of two stopped invocations
 * compared in the debuggee, from the copies its agent kept at their stops (agent/stop-copies.ts).
 */
import type { LiveDebuggee } from '../state/live-debuggee.js';
import type { TensorDiffArguments, TensorDiffResponseBody } from '../extension-protocol.js';

const USAGE = 'tensorDiff needs arguments { a: { invocationId }, b: { invocationId }, side: "inputs" | "outputs", index }';

export async function tensorDiff(args: unknown, controller: Pick<LiveDebuggee, 'agent' | 'closed'>): Promise<TensorDiffResponseBody> {
  const given = (args ?? {}) as Partial<TensorDiffArguments>;
  const a = Number(given.a?.invocationId);
  const b = Number(given.b?.invocationId);
  const index = Number(given.index);
  const side = given.side;
  if (!Number.isInteger(a) || !Number.isInteger(b) || !Number.isInteger(index) || index < 0 || (side !== 'inputs' && side !== 'outputs')) {
    throw new Error(`${USAGE}, not ${JSON.stringify(args ?? null)}`);
  }
  if (controller.closed) throw new Error(`the debug session has ended: the values kept of invocations ${a} and ${b} ended with its program`);
  const answer = await controller.agent.call((agent, x, y, s, i) => agent.tensorDiff(x, y, s, i), a, b, side, index);
  if ('error' in answer) throw new Error(answer.error);
  return answer;
}
