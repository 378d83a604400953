/**
 * End to end, in a real VS Code: the packaged .vsix installed into a fresh code-server 4.100.3
 * (VS Code 1.100.3), driven through Debian's Chromium by playwright-core as a user would (palette,
 * keyboard, the debug views, the tensor inspector webview).
 *
 *   npm run test:e2e     (or: npm run build && node --import tsx --test test/e2e/vscode.test.ts)
 *
 * Needs code-server (scripts/setup-code-server.sh installs it into a cache folder; this test runs
 * it) and /usr/bin/chromium (scripts/setup-test-env.sh). When either is missing and cannot be
 * installed, the test fails saying so: it never skips.
 *
 * One VS Code for all steps (harness.ts); the steps are in steps/, in the order they run, each
 * building on what the ones before left open. Screenshots of each step go to .artifacts/e2e/, with
 * code-server's logs when a step fails. The workspace's graph.ts is the debug adapter tests'
 * test/fixtures/debug/numpy-program.ts, copied; lines are found by its `// @name` markers. The
 * workspace has no node_modules: the extension's loader provides the runtime.
 */
import { describe } from 'node:test';
import { createE2e, type E2e } from './harness.js';
import { graphProgramSteps } from './steps/01-graph-program.js';
import { projectSteps } from './steps/06-projects-and-models.js';
import { graphViewNativeTerminalSteps } from './steps/13-graph-view-native-terminal.js';
import { stopsAndTrainingSteps } from './steps/16-stops-and-training.js';
import { tensorsOverTimeSteps } from './steps/23-tensors-over-time.js';

/** The step files by their first step's number, in the order they run. */
const STEP_FILES: readonly [number, (e: E2e) => void][] = [
  [1, graphProgramSteps],
  [6, projectSteps],
  [13, graphViewNativeTerminalSteps],
  [16, stopsAndTrainingSteps],
  [23, tensorsOverTimeSteps],
];

/**
 * `E2E_STEPS=23` (or `16,23`): only the step files starting at those steps, for working on a step
 * whose file needs nothing an earlier one leaves open. `npm test` runs them all, in order.
 */
const only = process.env.E2E_STEPS?.split(',').map(Number);

// The steps' sum depends on the machine's load (each step has its own limit): 20 minutes in all.
describe('the extension in a real VS Code (code-server 4.100.3)', { timeout: 1_200_000 }, () => {
  const e = createE2e();
  for (const [first, register] of STEP_FILES) if (!only || only.includes(first)) register(e);
});
