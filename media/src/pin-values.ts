/**
 * The pins' values of the last PIN_VALUE_STOPS stops, for a click on a chart's point (pins-view.ts).
 * In the page's memory only, never in the saved state (a reloaded page has summaries, not values):
 * at most PIN_VALUE_STOPS stops × the pins × the adapter's value limit (1,024 each).
 */
import type { HostMessage, WireValue } from './protocol.js';

/** Stops whose values are kept (the newest ones). */
export const PIN_VALUE_STOPS = 20;

export interface KeptValues {
  readonly values: readonly WireValue[];
  /** How many values the pin had (the first `values.length` of them are kept). */
  readonly size: number;
}

export class PinValues {
  private sessionId: string | undefined;
  /** Per stop (oldest first), per expression. */
  private readonly byStop = new Map<number, Map<string, KeptValues>>();

  keep(message: Extract<HostMessage, { type: 'pinned' }>): void {
    if (message.sessionId !== this.sessionId) {
      this.byStop.clear();
      this.sessionId = message.sessionId;
    }
    const stop = new Map<string, KeptValues>();
    for (const pin of message.event.pins) {
      if (pin.status === 'value' && Array.isArray(pin.values)) stop.set(pin.expression, { values: pin.values, size: pin.info.size });
    }
    this.byStop.delete(message.event.stop);
    this.byStop.set(message.event.stop, stop);
    for (const old of this.byStop.keys()) {
      if (this.byStop.size <= PIN_VALUE_STOPS) break;
      this.byStop.delete(old);
    }
  }

  /** The values of `expression` at `stop` of the current session, if still kept. */
  get(expression: string, stop: number): KeptValues | undefined {
    return this.byStop.get(stop)?.get(expression);
  }

  /** The stops kept, oldest first. */
  stops(): number[] {
    return [...this.byStop.keys()];
  }
}
