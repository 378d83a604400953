/**
 * Which stops the program makes: the exception filter checkboxes (setExceptionBreakpoints), under
 * what the launch or attach configuration sets itself (its breakOn… fields win over the boxes).
 */
import type { Controller } from './controller.js';
import type { FilterConfig } from '../launch-config.js';

export class StopFilters {
  /** The checked exception filters; undefined until the client's first setExceptionBreakpoints. */
  private exceptionFilters: string[] | undefined;
  /** The configuration's own breakOn… fields, those it sets. */
  launchFilters: Partial<FilterConfig> = {};

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
    };
  }

  /** The checkboxes as the client set them; applied now when the program is connected, else at its handshake. */
  async setExceptionFilters(filters: string[]): Promise<void> {
    this.exceptionFilters = filters;
    if (!this.controller.closed) await this.apply();
  }

  async apply(): Promise<void> {
    await this.controller.setFilters(this.effective());
    const filters = this.exceptionFilters ?? [];
    await this.controller.setPauseOnExceptions({ caught: filters.includes('caught'), uncaught: filters.includes('uncaught') });
  }
}
