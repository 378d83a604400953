/**
 * The training curve while debugging: the agent watches every fit's logs through the runtime's
 * fit-log watch (runtime/training/fit-logs.ts, lent as the runtime loads; an agent that comes first
 * leaves its observer in the shared list) and passes on what it gathers: through TRAINING_BINDING
 * while the program runs, as each fit begins, at most every TRAINING_SEND_MS and at each fit's end, and to the adapter's
 * `trainingCurve()` call at each stop. It keeps only what it has not sent yet (at most
 * MAX_PENDING points; older ones are counted as dropped, never silently lost).
 */
import type { FitLogObserver } from '../../../runtime/hook-types.js';
import type { FitInfo, FitLogPoint } from '../../../runtime/fit-log-types.js';
import { type DebugAgent, TRAINING_BINDING, TRAINING_SEND_MS, type TrainingCurveChunk } from '../agent-protocol.js';
import type { AgentContext } from './context.js';

/** Points kept unsent at most (a program paused nowhere and with no adapter listening gathers no more). */
const MAX_PENDING = 100_000;

export function createTrainingCurve(context: AgentContext): Pick<DebugAgent, 'trainingCurve'> {
  const fits: FitInfo[] = [];
  let pending: FitLogPoint[] = [];
  /** Points gathered before `pending[0]`, sent or dropped. */
  let from = 0;
  let dropped = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const chunk = (): TrainingCurveChunk | undefined => {
    if (fits.length === 0) return undefined;
    const current = context.state.tools?.fitPosition?.();
    const out: TrainingCurveChunk = { fits: [...fits], points: pending, from, dropped, ...(current ? { current } : {}) };
    from += pending.length;
    pending = [];
    dropped = 0;
    return out;
  };
  /** `begun`: a fit just began, said at once (the adapter asks for the curve at stops only once it knows of a fit). */
  const send = (begun = false) => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const binding = context.holder[TRAINING_BINDING];
    if (typeof binding !== 'function' || (pending.length === 0 && !begun)) return;
    const out = chunk();
    if (out) binding(JSON.stringify(out));
  };
  const soon = () => {
    if (timer) return;
    timer = setTimeout(() => send(), TRAINING_SEND_MS);
    // The program's end is not held back for it.
    (timer as { unref?: () => void }).unref?.();
  };
  const observer: FitLogObserver = {
    onFitBegin(fit) {
      fits.push(fit);
      send(true);
    },
    onFitPoint(point) {
      pending.push(point);
      if (pending.length > MAX_PENDING) {
        const cut = pending.length - MAX_PENDING;
        pending = pending.slice(cut);
        from += cut;
        dropped += cut;
      }
      soon();
    },
    onFitEnd: () => send(),
  };
  watch(context, observer);
  return { trainingCurve: chunk };
}

/** Observes every fit: through the runtime's watch when it has loaded, else from the shared list its watch reads as it loads. */
function watch(context: AgentContext, observer: FitLogObserver): void {
  const { state } = context;
  const add = state.tools?.addFitLogObserver;
  if (add) add(observer);
  else state.fitLogObservers = [...(state.fitLogObservers ?? []), observer];
}
