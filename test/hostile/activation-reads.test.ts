/**
 * Hostile workspaces at activation (issue 42 A2, A3, A5): the extension host asks whether each
 * workspace folder is a TF.js project (extension/server-start.ts isTfjsProject) by reading its
 * package.json and those one folder down. A package.json that is a FIFO, a link to /dev/zero or to
 * /dev/stdin, or 40 MB must give "no" at once without growing the process: the old synchronous
 * read hung on the first two and ballooned on the others. Each case runs in a child process that
 * this test kills when it overruns or grows past a bound, because a synchronous read that hangs
 * would freeze this process's own timers too.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SERVER_START = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'extension', 'server-start.ts')).href;
/** How long a child may take for one folder (it loads tsx first: about a second). */
const CHILD_LIMIT_MS = 20_000;
/** A child is killed past this resident size: the old read of /dev/zero grew to 6.7 GB. */
const KILL_RSS_BYTES = 1024 ** 3;
/** What one answer may add to the child's resident size, at its peak. */
const GROWTH_LIMIT_BYTES = 200 * 1024 ** 2;
const T = { timeout: 60_000 };

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tfjs-cb-activation-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const hasMkfifo = spawnSync('mkfifo', ['--version']).error === undefined;
/**
 * The children's stdin: a FIFO held open for writing and never written, as a terminal's idle pipe
 * is (a reader of /dev/stdin waits for good). Node's own 'pipe' is a socket, which /dev/stdin
 * cannot open at all.
 */
const idleStdin = hasMkfifo ? openIdleFifo() : 'pipe';
after(() => typeof idleStdin === 'number' && fs.closeSync(idleStdin));

function openIdleFifo(): number {
  const fifo = path.join(dir, 'stdin.fifo');
  spawnSync('mkfifo', [fifo]);
  return fs.openSync(fifo, 'r+'); // read and write: opening does not wait for a writer
}

/** The child: answers isTfjsProject(folder) and prints the answer and its peak resident growth. */
const CHILD = `
const { isTfjsProject } = await import(${JSON.stringify(SERVER_START)});
const before = process.memoryUsage().rss;
let peak = before;
const sample = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 5);
const result = await isTfjsProject(process.argv[1]);
clearInterval(sample);
peak = Math.max(peak, process.memoryUsage().rss);
process.stdout.write(JSON.stringify({ result, growth: peak - before }));
process.exit(0);
`;

interface Answer {
  readonly result: boolean;
  readonly growth: number;
}

/** isTfjsProject(folder) in a child whose stdin stays open and empty (what /dev/stdin reads). */
function askInChild(folder: string): Promise<Answer> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD, folder], { stdio: [idleStdin, 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  return new Promise((resolve, reject) => {
    let killedFor: string | undefined;
    const kill = (why: string) => {
      killedFor ??= why;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => kill(`no answer within ${CHILD_LIMIT_MS / 1000} s (the read blocks)`), CHILD_LIMIT_MS);
    const watch = setInterval(() => {
      const rss = residentBytes(child);
      if (rss > KILL_RSS_BYTES) kill(`it grew past ${KILL_RSS_BYTES / 1024 ** 2} MB (the read does not stop)`);
    }, 50);
    child.on('exit', (code) => {
      clearTimeout(timer);
      clearInterval(watch);
      if (killedFor) reject(new Error(`isTfjsProject(${folder}): ${killedFor}`));
      else if (code !== 0) reject(new Error(`isTfjsProject(${folder}): the child exited ${code}: ${stderr}`));
      else resolve(JSON.parse(stdout) as Answer);
    });
  });
}

/** A process's resident size from /proc (0 where there is none). */
function residentBytes(child: ChildProcess): number {
  try {
    const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

const TFJS_MANIFEST = JSON.stringify({ name: 'app', dependencies: { '@tensorflow/tfjs': '^4.22.0' } });
const PLAIN_MANIFEST = JSON.stringify({ name: 'tools', dependencies: { lodash: '^4.0.0' } });

/** A folder whose package.json (or `sub`'s, with a plain one above) is made by `make`; with `tfjsSibling`, a TF.js project beside it. */
function workspace(name: string, make: (packageJson: string) => void, o: { readonly sub?: boolean; readonly tfjsSibling?: boolean } = {}): string {
  const folder = path.join(dir, name);
  fs.mkdirSync(folder);
  let target = folder;
  if (o.sub) {
    fs.writeFileSync(path.join(folder, 'package.json'), PLAIN_MANIFEST);
    target = path.join(folder, 'hostile');
    fs.mkdirSync(target);
  }
  make(path.join(target, 'package.json'));
  if (o.tfjsSibling) {
    fs.mkdirSync(path.join(folder, 'zz-app'));
    fs.writeFileSync(path.join(folder, 'zz-app', 'package.json'), TFJS_MANIFEST);
  }
  return folder;
}

/** 40 MB of valid JSON: a package.json with a million and a half dependencies, none of them TF.js. */
function bigManifest(file: string): void {
  const deps: string[] = [];
  for (let i = 0; deps.length * 26 < 40 * 1024 ** 2; i++) deps.push(`"pkg-${String(i).padStart(9, '0')}":"1.0.0"`);
  fs.writeFileSync(file, `{"name":"big","dependencies":{${deps.join(',')}}}`);
}

const HOSTILE: Record<string, (file: string) => void> = {
  'a FIFO': (file) => {
    const made = spawnSync('mkfifo', [file]);
    assert.equal(made.status, 0, `mkfifo ${file}: ${made.stderr}`);
  },
  'a link to /dev/zero': (file) => fs.symlinkSync('/dev/zero', file),
  'a link to /dev/stdin': (file) => fs.symlinkSync('/dev/stdin', file),
  '40 MB': bigManifest,
};

describe("activation's package.json reads on a hostile workspace (issue 42 A2, A3, A5)", () => {
  for (const [kind, make] of Object.entries(HOSTILE)) {
    const skip = kind === 'a FIFO' && !hasMkfifo ? 'no mkfifo on this machine' : false;
    const slug = kind.replace(/\W+/g, '-');

    test(`a package.json that is ${kind}: not a TF.js project, at once, with no growth`, { ...T, skip }, async () => {
      const answer = await askInChild(workspace(`top${slug}`, make));
      assert.equal(answer.result, false);
      assert.ok(answer.growth < GROWTH_LIMIT_BYTES, `grew by ${(answer.growth / 1024 ** 2).toFixed(0)} MB`);
    });

    test(`the same one folder down (${kind}): not a TF.js project; a TF.js project beside it still is one`, { ...T, skip }, async () => {
      const answer = await askInChild(workspace(`sub${slug}`, make, { sub: true }));
      assert.equal(answer.result, false);
      assert.ok(answer.growth < GROWTH_LIMIT_BYTES, `grew by ${(answer.growth / 1024 ** 2).toFixed(0)} MB`);
      const beside = await askInChild(workspace(`beside${slug}`, make, { sub: true, tfjsSibling: true }));
      assert.equal(beside.result, true, 'the hostile folder is passed over, not the end of the look');
    });
  }

  test('a TF.js project still is one: its own package.json, one a folder down, and one reached through a link to a regular file', T, async () => {
    assert.equal((await askInChild(workspace('plain-tfjs', (f) => fs.writeFileSync(f, TFJS_MANIFEST)))).result, true);
    assert.equal((await askInChild(workspace('sub-tfjs', (f) => fs.writeFileSync(f, TFJS_MANIFEST), { sub: true }))).result, true);
    const real = path.join(dir, 'real-package.json');
    fs.writeFileSync(real, TFJS_MANIFEST);
    assert.equal((await askInChild(workspace('linked-tfjs', (f) => fs.symlinkSync(real, f)))).result, true);
    assert.equal((await askInChild(workspace('plain-other', (f) => fs.writeFileSync(f, PLAIN_MANIFEST)))).result, false);
  });
});
