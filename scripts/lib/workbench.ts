/**
 * One fresh code-server with the .vsix installed, and Chromium on it: what the end-to-end test
 * (test/e2e/harness.ts) and `npm run bench:vscode` both start, one copy. Everything it starts is
 * killed by process group in `close`.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { VSCE_PACKAGE_ARGS } from './vsce-args.js';
import { CHROMIUM_ARGS, codeServerArgs } from './code-server-options.js';

export const CHROMIUM = '/usr/bin/chromium';

export interface Workbench {
  readonly page: Page;
  readonly codeServerVersion: string;
  readonly vscodeVersion: string;
  readonly jsDebugVersion: string;
  /** Where the .vsix was installed (its runtime loader and tsx are what js-debug and plain runs use too). */
  readonly extensionDir: string;
  /** The user settings.json (code-server watches it). */
  readonly settingsFile: string;
  /** code-server's user data (its logs/ folder) and its own log file: what to keep when a run fails. */
  readonly userData: string;
  readonly logFile: string;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Pids whose command line mentions `needle` (the bench's temp dir): debuggees outside code-server's group. */
export function processesMentioning(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').includes(needle)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

export interface StartOptions {
  readonly root: string;
  /** The bench's temp dir: home, user data, extensions, chromium profile live under it. */
  readonly work: string;
  readonly workspace: string;
  readonly settings: Record<string, unknown>;
  readonly viewport: { width: number; height: number };
  readonly log: (line: string) => void;
  /** Called once the .vsix is installed, before code-server starts: writes the workspace. */
  readonly prepare: (extensionDir: string) => void;
  /** Build first when a build output is missing (the e2e test run alone); else that is an error. */
  readonly build?: boolean;
}

export async function startWorkbench(o: StartOptions): Promise<Workbench> {
  const home = path.join(o.work, 'home');
  const userData = path.join(o.work, 'user-data');
  const extensions = path.join(o.work, 'extensions');
  const vsix = path.join(o.work, 'tfjs-callback-debugger.vsix');
  for (const dir of [home, userData, extensions]) mkdirSync(dir, { recursive: true });
  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
  };
  if (!existsSync(CHROMIUM))
    throw new Error(
      `${CHROMIUM} is missing: VS Code is driven through Debian's Chromium. Run \`bash scripts/setup-test-env.sh\` (as root) or \`apt-get install -y chromium\`.`,
    );

  const built = ['out/extension.cjs', 'out/server.cjs', 'dist/debug-adapter/main.js', 'dist/runtime/cli/main.js', 'media/dist/inspector.js'];
  if (built.some((f) => !existsSync(path.join(o.root, f)))) {
    if (!o.build) throw new Error(`not built (${built.join(', ')}): run \`npm run build\` first`);
    o.log('building (dist/, out/ or media/dist/ missing)');
    execFileSync('npm', ['run', 'build'], { cwd: o.root, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  execFileSync(process.execPath, [path.join(o.root, 'node_modules', '@vscode', 'vsce', 'vsce'), ...VSCE_PACKAGE_ARGS, '--out', vsix], {
    cwd: o.root,
    stdio: 'pipe',
  });
  o.log(`packaged ${path.basename(vsix)}`);

  const setup = spawnSync('bash', [path.join(o.root, 'scripts', 'setup-code-server.sh')], { cwd: o.root, encoding: 'utf8', timeout: 600_000 });
  const codeServer = setup.stdout.trim().split('\n').pop() ?? '';
  if (setup.status !== 0 || !existsSync(codeServer)) {
    throw new Error(
      `code-server 4.100.3 is not installed and scripts/setup-code-server.sh could not install it (exit ${setup.status ?? setup.signal}). ` +
        `Run \`bash scripts/setup-code-server.sh\` (as root on a fresh machine).\n${setup.stderr.slice(-3000)}`,
    );
  }
  const install = spawnSync(codeServer, ['--user-data-dir', userData, '--extensions-dir', extensions, '--install-extension', vsix], {
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (install.status !== 0 || !/successfully installed/.test(install.stdout))
    throw new Error(`installing the .vsix failed:\n${install.stdout}${install.stderr}`);
  const extensionDir = readdirSync(extensions)
    .filter((d) => d.startsWith('tfjs-callback-debugger.'))
    .map((d) => path.join(extensions, d))[0];
  if (!extensionDir) throw new Error(`the .vsix installed, but no tfjs-callback-debugger.* folder is in ${extensions}`);

  // Versions: code-server's own, the VS Code it carries, and its built-in js-debug.
  const csRoot = path.resolve(path.dirname(codeServer), '..', 'code-server');
  const version = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  const codeServerVersion = version(path.join(csRoot, 'package.json'));
  const vscodeVersion = version(path.join(csRoot, 'lib', 'vscode', 'package.json'));
  const jsDebugVersion = version(path.join(csRoot, 'lib', 'vscode', 'extensions', 'ms-vscode.js-debug', 'package.json'));

  o.prepare(extensionDir);
  mkdirSync(path.join(userData, 'User'), { recursive: true });
  const settingsFile = path.join(userData, 'User', 'settings.json');
  writeFileSync(settingsFile, JSON.stringify(o.settings, null, 2));

  const port = await freePort();
  const logFile = path.join(o.work, 'code-server.log');
  const out = openSync(logFile, 'a');
  // detached: its own process group, killed as one (a file watcher outlives a killed top pid).
  const server: ChildProcess = spawn(codeServer, codeServerArgs(port, userData, extensions, o.workspace), { env, detached: true, stdio: ['ignore', out, out] });
  closeSync(out);
  let browser: BrowserContext | undefined;
  const close = async () => {
    await browser?.close().catch(() => undefined);
    if (server.pid) {
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      for (let i = 0; i < 30 && server.exitCode === null && server.signalCode === null; i++) await sleep(100);
      try {
        process.kill(-server.pid, 'SIGKILL');
      } catch {
        // the group is gone
      }
    }
  };
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`code-server exited with ${server.exitCode}:\n${readFileSync(logFile, 'utf8').slice(-3000)}`);
      const healthy = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (healthy) break;
      if (Date.now() > deadline) throw new Error('code-server did not answer /healthz within 60 s');
      await sleep(200);
    }
    o.log(`code-server ${codeServerVersion} (VS Code ${vscodeVersion}, js-debug ${jsDebugVersion}) on 127.0.0.1:${port}, pid ${server.pid}`);
    browser = await chromium.launchPersistentContext(path.join(o.work, 'chromium'), {
      executablePath: CHROMIUM,
      headless: true,
      viewport: o.viewport,
      args: [...CHROMIUM_ARGS],
      env: { ...env },
    });
    const page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(o.workspace)}`);
    await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 60_000 });
    o.log('workbench loaded');
    return { page, codeServerVersion, vscodeVersion, jsDebugVersion, extensionDir, settingsFile, userData, logFile, close };
  } catch (err) {
    await close();
    throw err;
  }
}
