/**
 * Which stops the program makes: the exception filter checkboxes (setExceptionBreakpoints), under
 * what the launch or attach configuration sets itself (its breakOn… fields win over the boxes).
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Controller } from './controller.js';
import type { FilterConfig } from '../launch-config.js';
import type { OpBirthIgnore } from '../debuggee/agent-protocol.js';
import { checkOpCondition } from '../breakpoints/op-births.js';

export class StopFilters {
  /** The checked exception filters; undefined until the client's first setExceptionBreakpoints. */
  private exceptionFilters: string[] | undefined;
  /** The configuration's own breakOn… fields, those it sets. */
  launchFilters: Partial<FilterConfig> = {};
  /** The `opNonFinite` filter's condition, as the client set it. */
  private opCondition: string | undefined;
  /** Births dismissed for the session. */
  private readonly ignored: OpBirthIgnore[] = [];

  constructor(private readonly controller: Controller) {}

  effective(): FilterConfig {
    const fromFilters = this.exceptionFilters
      ? {
          breakOnToutMismatch: this.exceptionFilters.includes('toutMismatch'),
          breakOnNonFinite: this.exceptionFilters.includes('nonFinite'),
          breakOnGraphNonFinite: this.exceptionFilters.includes('graphNonFinite'),
          breakOnOpNonFinite: this.exceptionFilters.includes('opNonFinite'),
        }
      : {};
    return {
      breakOnCallbacks: [],
      breakOnToutMismatch: true,
      breakOnNonFinite: false,
      breakOnGraphNonFinite: false,
      breakOnOpNonFinite: false,
      ...fromFilters,
      ...this.launchFilters,
      ...(this.opCondition ? { opNonFiniteCondition: this.opCondition } : {}),
      opNonFiniteIgnored: [...this.ignored],
    };
  }

  /**
   * The checkboxes (and the conditions of those that take one: `opNonFinite`) as the client set
   * them; applied now when the program is connected, else at its handshake. A condition that does
   * not compile is refused: its filter's breakpoint is answered unverified, saying why.
   */
  async setExceptionFilters(filters: string[], options: readonly DebugProtocol.ExceptionFilterOptions[] = []): Promise<DebugProtocol.Breakpoint[]> {
    this.exceptionFilters = [...filters, ...options.map((o) => o.filterId)];
    const condition = options.find((o) => o.filterId === 'opNonFinite')?.condition?.trim();
    const refused = condition ? checkOpCondition(condition) : undefined;
    this.opCondition = condition && !refused ? condition : undefined;
    if (!this.controller.closed) await this.apply();
    return this.exceptionFilters.map((id) => (id === 'opNonFinite' && refused ? { verified: false, message: refused } : { verified: true }));
  }

  /** "Don't stop here again": a birth dismissed for the rest of the session. */
  async ignore(rule: OpBirthIgnore): Promise<void> {
    this.ignored.push(rule);
    if (!this.controller.closed) await this.controller.setFilters(this.effective());
  }

  /** The boxes applied: V8's pauses on exceptions first, then the agent's configuration (which says whether it asks for the debugger as a callback starts). */
  async apply(): Promise<void> {
    const filters = this.exceptionFilters;
    // A client that never set the boxes gets their defaults (capabilities.ts): Errors thrown in callbacks on.
    await this.controller.setPauseOnExceptions({
      caught: !!filters?.includes('caught'),
      uncaught: !!filters?.includes('uncaught'),
      callbackErrors: filters ? filters.includes('callbackErrors') : true,
    });
    await this.controller.setFilters(this.effective());
  }
}
