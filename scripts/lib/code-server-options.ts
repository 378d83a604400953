/**
 * How the tests and benchmarks that drive a real VS Code start it and the browser: code-server's
 * flags (loopback only, no auth, no telemetry or update checks, a fresh user and extensions dir),
 * the quiet workbench settings, and headless Chromium's arguments. One copy for the e2e test, the
 * webview tests' browser and `npm run bench:vscode`.
 */

/** code-server's command line for a fresh profile on `port` (127.0.0.1 only), opening `workspace`. */
export function codeServerArgs(port: number, userData: string, extensions: string, workspace: string): string[] {
  return [
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--user-data-dir',
    userData,
    '--extensions-dir',
    extensions,
    workspace,
  ];
}

/** User settings that keep the workbench from showing or fetching anything a run did not ask for. */
export const QUIET_SETTINGS: Readonly<Record<string, unknown>> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'chat.disableAIFeatures': true,
  'security.workspace.trust.enabled': false,
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'git.enabled': false,
};

/** Debian's Chromium, headless, with nothing it would fetch or sync on its own. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
