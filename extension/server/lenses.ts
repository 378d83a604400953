/**
 * Code lenses: "Run graph" and "Debug graph" at the top of a graph program, and "Break on call"
 * above each wrapper call (by its name, its function's name, or the token the last run gave it).
 */
import type { CodeLens } from 'vscode-languageserver';
import type { ProgramAnalysis, TraceMatch } from './program-analysis.js';
import { rangeOf } from './positions.js';
import { callbackLabel } from './wrapper-calls.js';

export const COMMANDS = {
  runGraph: 'tfjsCallbacks.runGraph',
  debugGraph: 'tfjsCallbacks.debugGraph',
  breakOnCallback: 'tfjsCallbacks.breakOnCallback',
} as const;

export function programLenses(analysis: ProgramAnalysis, match: TraceMatch | undefined): CodeLens[] {
  const top = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const lenses: CodeLens[] = [
    { range: top, command: { title: 'Run graph', command: COMMANDS.runGraph, arguments: [analysis.uri] } },
    { range: top, command: { title: 'Debug graph', command: COMMANDS.debugGraph, arguments: [analysis.uri] } },
  ];
  for (const call of analysis.calls) {
    const range = rangeOf(call.call, analysis.sourceFile);
    const traced = match?.byCall.get(call)?.at(-1)?.callback.token;
    const name = callbackLabel(call) ?? traced;
    lenses.push(
      name
        ? { range, command: { title: 'Break on call', command: COMMANDS.breakOnCallback, arguments: [name] } }
        : // Nothing to break on by name until it has one: a label-only lens says how.
          { range, command: { title: "Break on call: give this callback a name ({ name: '…' }) to break on it", command: '' } },
    );
  }
  return lenses;
}
