/**
 * One .vsix per platform, each with its own esbuild binary: tsx compiles a user's TypeScript with
 * esbuild, whose API runs the native binary of @esbuild/<platform> (scripts/lib/package-targets.ts).
 * The five are packaged as `npm run package:all` does: this machine's target from the working tree
 * (the e2e's package), the four others from a copy with their binary fetched from npm (a few
 * seconds each once the copy is made). Each is unpacked: its manifest names its target, its binary
 * is there, of its platform and esbuild's version, and nothing else differs. Entries and size per
 * target are written to the test's output (bench/README.md keeps them).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { repoRoot } from '../fixtures/spawn.js';
import { esbuildVersion, packageTargets, type PackagedTarget } from '../../scripts/lib/package-targets.js';
import { esbuildBinary, hostTarget, PACKAGE_TARGETS, type PackageTarget } from '../../scripts/lib/vsce-args.js';

const host = hostTarget();
const targets: PackageTarget[] = [...(host ? [host] : []), ...PACKAGE_TARGETS.filter((t) => t !== host)];
const work = mkdtempSync(path.join(os.tmpdir(), 'tfjs-cb-targets-'));
const unpacked = (target: PackageTarget) => path.join(work, target);
let packaged: PackagedTarget[] = [];

/** What a binary's header says it runs on, as `<os>-<cpu>` in VS Code's target names. */
function binaryPlatform(file: string): string {
  const b = readFileSync(file).subarray(0, 4096);
  if (b.readUInt32BE(0) === 0x7f454c46) return `linux-${ELF_MACHINES.get(b.readUInt16LE(18)) ?? '?'}`;
  if (b.readUInt32LE(0) === 0xfeedfacf) return `darwin-${MACHO_CPUS.get(b.readUInt32LE(4)) ?? '?'}`;
  if (b.toString('latin1', 0, 2) === 'MZ') {
    const pe = b.readUInt32LE(0x3c);
    assert.equal(b.toString('latin1', pe, pe + 4), 'PE\0\0');
    return `win32-${PE_MACHINES.get(b.readUInt16LE(pe + 4)) ?? '?'}`;
  }
  return 'unknown';
}
const ELF_MACHINES = new Map([
  [0x3e, 'x64'],
  [0xb7, 'arm64'],
]);
const MACHO_CPUS = new Map([
  [0x01000007, 'x64'],
  [0x0100000c, 'arm64'],
]);
const PE_MACHINES = new Map([
  [0x8664, 'x64'],
  [0xaa64, 'arm64'],
]);

function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );
}

describe('platform packages', { timeout: 600_000 }, () => {
  before(() => {
    // dist/, out/ and media/dist are built by `npm test` before the tests run.
    packaged = packageTargets(targets, { root: repoRoot, outDir: work, log: (line) => console.log(`# ${line}`) });
    for (const p of packaged) execFileSync('unzip', ['-q', p.vsix, '-d', unpacked(p.target)]);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  test('each package names its target and carries its esbuild binary, of its platform and esbuild version', (t) => {
    assert.deepEqual(
      packaged.map((p) => p.target),
      targets,
    );
    const version = esbuildVersion(repoRoot);
    for (const { target, entries, bytes } of packaged) {
      const root = unpacked(target);
      assert.match(readFileSync(path.join(root, 'extension.vsixmanifest'), 'utf8'), new RegExp(`TargetPlatform="${target}"`));
      const binary = path.join(root, 'extension', esbuildBinary(target));
      assert.equal(binaryPlatform(binary), target, `${esbuildBinary(target)} runs on ${target}`);
      if (!target.startsWith('win32-')) assert.ok(statSync(binary).mode & 0o100, `${esbuildBinary(target)} is executable`);
      const manifest = JSON.parse(readFileSync(path.join(root, 'extension', 'node_modules', '@esbuild', target, 'package.json'), 'utf8')) as {
        version: string;
      };
      assert.equal(manifest.version, version, "the installed esbuild's version (it refuses another binary's)");
      assert.deepEqual(readdirSync(path.join(root, 'extension', 'node_modules', '@esbuild')), [target], 'no other platform');
      t.diagnostic(`${target}: ${entries} entries, ${bytes} bytes (${(bytes / 1e6).toFixed(2)} MB)`);
    }
  });

  test("the packages differ only in the esbuild package: the other target's copy misses nothing", () => {
    const listed = packaged.map(({ target }) =>
      filesUnder(path.join(unpacked(target), 'extension'))
        .map((f) => f.replace(`node_modules/@esbuild/${target}/`, 'node_modules/@esbuild/<target>/').replace(/esbuild\.exe$/, 'bin/esbuild'))
        .sort(),
    );
    for (const files of listed.slice(1)) assert.deepEqual(files, listed[0]);
  });

  test("this machine's package runs esbuild from its own binary", { skip: !host && 'no package for this machine' }, () => {
    const esbuild = path.join(unpacked(host!), 'extension', 'node_modules', 'esbuild');
    const out = execFileSync(
      process.execPath,
      ['-e', `process.stdout.write(require(${JSON.stringify(esbuild)}).transformSync('const x: number = 1', { loader: 'ts' }).code)`],
      {
        encoding: 'utf8',
        env: { ...process.env, ESBUILD_BINARY_PATH: '' },
      },
    );
    assert.equal(out.trim(), 'const x = 1;');
  });
});
