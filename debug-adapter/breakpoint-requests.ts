/**
 * Source and function breakpoints as DAP sets them, and the possible breakpoint positions of lines
 * (breakpointLocations). A breakpoint that cannot be read is answered unverified, with why; the
 * others go to the controller. Each returns its response's body.
 */
import { Source } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { breakpointLocations } from './breakpoints/locations.js';
import type { ClientPositions } from './client.js';
import type { Controller } from './pauses/controller.js';
import type { DataBreakpoints } from './breakpoints/data.js';
import { variableBreakpointTarget } from './extension-protocol.js';
import { lineProblem, pickDefined } from './request-guard.js';

export class BreakpointRequests {
  constructor(
    private readonly controller: Controller,
    private readonly positions: ClientPositions,
    private readonly dataBreakpoints: DataBreakpoints,
  ) {}

  async setSourceBreakpoints(args: DebugProtocol.SetBreakpointsArguments): Promise<DebugProtocol.SetBreakpointsResponse['body']> {
    const file = args.source.path;
    if (!file) return { breakpoints: [] };
    // A breakpoint with no usable line is answered unverified, with why; the others are set.
    const requested = args.breakpoints ?? [];
    const problems = requested.map((b) => (typeof b === 'object' && b !== null ? lineProblem(b.line) : 'not a breakpoint (expected { line })'));
    const specs = requested
      .filter((_, i) => !problems[i])
      .map((b) => ({
        line: this.positions.lineToDebugger(b.line),
        ...pickDefined({ condition: b.condition, hitCondition: b.hitCondition, logMessage: b.logMessage }),
      }));
    const bps = await this.controller.setSourceBreakpoints(file, specs);
    const source = new Source(file.split('/').pop()!, file);
    let next = 0;
    return {
      breakpoints: problems.map((problem) => {
        if (problem) return { verified: false, message: `${problem}: not set`, source };
        const bp = bps[next++]!;
        return { id: bp.id, verified: bp.verified, line: this.positions.lineToClient(bp.line), source, ...(bp.message ? { message: bp.message } : {}) };
      }),
    };
  }

  /** Callback and node names go to the controller; `tf.Variable <name>` ones are data breakpoints (data.ts). */
  async setFunctionBreakpoints(args: DebugProtocol.SetFunctionBreakpointsArguments): Promise<DebugProtocol.SetFunctionBreakpointsResponse['body']> {
    const named = (b: unknown): b is DebugProtocol.FunctionBreakpoint =>
      typeof b === 'object' && b !== null && typeof (b as { name?: unknown }).name === 'string';
    const valid = args.breakpoints.filter(named);
    const onVariable = (b: DebugProtocol.FunctionBreakpoint) => variableBreakpointTarget(b.name);
    const statuses = await this.controller.setFunctionBreakpoints(
      valid.filter((b) => !onVariable(b)).map((b) => ({ name: b.name, ...pickDefined({ condition: b.condition, hitCondition: b.hitCondition }) })),
    );
    const agent = this.controller.closed ? undefined : this.controller.agent;
    const watches = await this.dataBreakpoints.setFromFunctionBreakpoints(
      agent,
      valid.flatMap((b) => {
        const variable = onVariable(b);
        return variable ? [{ variable, ...pickDefined({ condition: b.condition, hitCondition: b.hitCondition }) }] : [];
      }),
    );
    let nextName = 0;
    let nextWatch = 0;
    return {
      breakpoints: args.breakpoints.map((b) => {
        if (!named(b)) return { verified: false, message: 'not a function breakpoint (expected { name: string }): not set' };
        if (onVariable(b)) return watches[nextWatch++]!;
        const status = statuses[nextName++]!;
        return { id: status.id, verified: status.verified, ...(status.message ? { message: status.message } : {}) };
      }),
    };
  }

  /** Possible breakpoint positions on lines of a file (locations.ts); none for a file not loaded. */
  async locations(args: DebugProtocol.BreakpointLocationsArguments): Promise<DebugProtocol.BreakpointLocationsResponse['body']> {
    const file = args.source.path;
    const line = this.positions.lineToDebugger(args.line);
    const endLine = args.endLine !== undefined ? this.positions.lineToDebugger(args.endLine) : line;
    const cdp = this.controller.closed ? undefined : this.controller.connection().cdp;
    const found = file ? await breakpointLocations(cdp, this.controller.scripts.sources, file, line, endLine) : [];
    return {
      breakpoints: found.map((p) => ({ line: this.positions.lineToClient(p.line), column: this.positions.columnToClient(p.column + 1) })),
    };
  }
}
