/**
 * The supported TensorFlow.js range (runtime/tfjs-version.ts): a project's @tensorflow/tfjs and
 * tfjs-core found as Node resolves them from its folder, and the one message an unsupported one
 * gets; which backend package may join an engine. Real folders with package.json files under
 * node_modules; no tfjs loads.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import {
  backendCopyProblem,
  backendPackageProblem,
  checkProjectTfjs,
  isSupportedTfjs,
  packageAt,
  RECOMMENDED_TFJS,
  SUPPORTED_TFJS,
  SUPPORTED_TFJS_RANGE,
} from '../../runtime/tfjs-version.js';
import { repoRoot } from '../fixtures/spawn.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tfjs-cb-version-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

/** A project folder with these packages installed (name → version, or a package.json's raw text). */
function project(name: string, packages: Record<string, string>): string {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', dependencies: packages }));
  for (const [pkg, version] of Object.entries(packages)) {
    const pkgDir = path.join(dir, 'node_modules', ...pkg.split('/'));
    fs.mkdirSync(pkgDir, { recursive: true });
    const text = version.startsWith('{') || version.startsWith('<') ? version : JSON.stringify({ name: pkg, version, main: 'index.js' });
    fs.writeFileSync(path.join(pkgDir, 'package.json'), text);
  }
  return dir;
}

function refused(dir: string): string {
  const check = checkProjectTfjs(dir);
  assert.equal(check.ok, false, `${dir} should be refused, found ${JSON.stringify(check.found)}`);
  return (check as { message: string }).message;
}

describe('the supported range', () => {
  test('is 3.0.0 up to, not including, 5.0.0', () => {
    assert.deepEqual(SUPPORTED_TFJS, { min: '3.0.0', belowMajor: 5 });
    assert.equal(SUPPORTED_TFJS_RANGE, '>=3.0.0 <5.0.0');
    for (const v of ['3.0.0', '3.18.0', '3.21.0', '4.0.0', '4.22.0', '4.99.1', '4.1.0-rc.0']) assert.equal(isSupportedTfjs(v), true, v);
    for (const v of ['1.7.4', '2.8.6', '3.0.0-rc.1', '5.0.0', '5.0.0-alpha.1', '', 'latest', '4']) assert.equal(isSupportedTfjs(v), false, v);
  });

  test('package.json declares the range (peer and own dependency); what it tells people to install is the tfjs the runtime ships with', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    assert.equal(manifest.peerDependencies['@tensorflow/tfjs'], SUPPORTED_TFJS_RANGE);
    assert.equal(manifest.dependencies['@tensorflow/tfjs'], SUPPORTED_TFJS_RANGE);
    // tfjs-node is the user's (or setup-native's): as a dependency of ours its install would download libtensorflow for every user.
    assert.equal(manifest.optionalDependencies?.['@tensorflow/tfjs-node'], undefined);
    const shipped = JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules', '@tensorflow', 'tfjs', 'package.json'), 'utf8')) as { version: string };
    assert.equal(RECOMMENDED_TFJS, `^${shipped.version}`);
    assert.equal(isSupportedTfjs(RECOMMENDED_TFJS.slice(1)), true);
  });
});

describe("a project's tfjs", () => {
  test('3.x and 4.x pass, found where the program is (a subfolder resolves upward)', () => {
    for (const version of ['3.0.0', '3.18.0', '4.22.0']) {
      const dir = project(`ok-${version}`, { '@tensorflow/tfjs': version, '@tensorflow/tfjs-core': version });
      fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
      const check = checkProjectTfjs(path.join(dir, 'src'));
      assert.equal(check.ok, true);
      assert.deepEqual(
        check.found.map((p) => [p.name, p.version, p.manifest]),
        [
          ['@tensorflow/tfjs', version, path.join(dir, 'node_modules', '@tensorflow', 'tfjs', 'package.json')],
          ['@tensorflow/tfjs-core', version, path.join(dir, 'node_modules', '@tensorflow', 'tfjs-core', 'package.json')],
        ],
      );
    }
  });

  test('a project without tfjs passes: the runtime brings its own', () => {
    const dir = project('none', {});
    assert.deepEqual(checkProjectTfjs(dir), { ok: true, found: [] });
  });

  test('1.7.4 (tfjs-examples pin it): one message with the version, its folder, the range and the command', () => {
    const dir = project('old-1', { '@tensorflow/tfjs': '1.7.4', '@tensorflow/tfjs-core': '1.7.4' });
    assert.equal(
      refused(dir),
      `This project has @tensorflow/tfjs 1.7.4, @tensorflow/tfjs-core 1.7.4 in ${path.join(dir, 'node_modules')}, which tfjs-callback-debugger does not support: ` +
        'it supports TensorFlow.js >=3.0.0 <5.0.0 (3.x and 4.x). ' +
        `Upgrade them together with one command in ${dir}: \`npm install @tensorflow/tfjs@^4.22.0 @tensorflow/tfjs-core@^4.22.0\` ` +
        '(or `npm install @tensorflow/tfjs@^3.21.0 @tensorflow/tfjs-core@^3.21.0`, the last 3.x, a smaller step from 1.x).',
      'both are in its package.json: the command upgrades both',
    );
    const single = project('old-1-alone', { '@tensorflow/tfjs': '1.7.4' });
    assert.equal(
      refused(single),
      `This project has @tensorflow/tfjs 1.7.4 (${path.join(single, 'node_modules', '@tensorflow', 'tfjs')}), which tfjs-callback-debugger does not support: ` +
        'it supports TensorFlow.js >=3.0.0 <5.0.0 (3.x and 4.x). ' +
        `Upgrade it with \`npm install @tensorflow/tfjs@^4.22.0\` in ${single} (or @tensorflow/tfjs@^3.21.0, the last 3.x, a smaller step from 1.x).`,
    );
  });

  test('2.8.6, asked from the program folder below the project: the command names the folder that has node_modules', () => {
    const dir = project('old-2', { '@tensorflow/tfjs': '2.8.6' });
    fs.mkdirSync(path.join(dir, 'lib', 'deep'), { recursive: true });
    const message = refused(path.join(dir, 'lib', 'deep'));
    assert.match(message, /^This project has @tensorflow\/tfjs 2\.8\.6 \(/);
    assert.ok(message.includes(`\`npm install @tensorflow/tfjs@^4.22.0\` in ${dir} (`), message);
  });

  test('a 3.0 prerelease is refused; 5.x is "not yet", with the supported install to fall back on', () => {
    assert.match(
      refused(project('rc', { '@tensorflow/tfjs': '3.0.0-rc.1' })),
      /has @tensorflow\/tfjs 3\.0\.0-rc\.1 .*does not support: it supports TensorFlow\.js >=3\.0\.0 <5\.0\.0/,
    );
    const message = refused(project('next', { '@tensorflow/tfjs': '5.0.0' }));
    assert.match(
      message,
      /has @tensorflow\/tfjs 5\.0\.0 \(.*\), which tfjs-callback-debugger does not support yet: it supports TensorFlow\.js >=3\.0\.0 <5\.0\.0 \(3\.x and 4\.x\)\./,
    );
    assert.match(message, /Install a supported one with `npm install @tensorflow\/tfjs@\^4\.22\.0` in .*, or a tfjs-callback-debugger that supports 5\.x\.$/);
  });

  test('a project with only tfjs-core (the engine) is checked by it, and told to install that package', () => {
    const message = refused(project('core-only', { '@tensorflow/tfjs-core': '2.8.6', '@tensorflow/tfjs-backend-cpu': '2.8.6' }));
    assert.match(message, /^This project has @tensorflow\/tfjs-core 2\.8\.6, @tensorflow\/tfjs-backend-cpu 2\.8\.6 in /);
    assert.match(message, /`npm install @tensorflow\/tfjs-core@\^4\.22\.0 @tensorflow\/tfjs-backend-cpu@\^4\.22\.0`/);
  });

  test('a tfjs in range over a core out of it (a mixed install) is refused for the core', () => {
    const check = checkProjectTfjs(project('mixed', { '@tensorflow/tfjs': '4.22.0', '@tensorflow/tfjs-core': '2.8.6' }));
    assert.equal(check.ok, false);
    assert.equal((check as { offending: { name: string } }).offending.name, '@tensorflow/tfjs-core');
  });

  test('looked up afresh each time: an upgrade, then an uninstall, are seen at once (a language server lives long)', () => {
    const dir = project('changing', { '@tensorflow/tfjs': '1.7.4' });
    assert.equal(checkProjectTfjs(dir).ok, false);
    fs.writeFileSync(path.join(dir, 'node_modules', '@tensorflow', 'tfjs', 'package.json'), JSON.stringify({ name: '@tensorflow/tfjs', version: '4.22.0' }));
    assert.equal(checkProjectTfjs(dir).ok, true);
    fs.rmSync(path.join(dir, 'node_modules'), { recursive: true });
    assert.deepEqual(checkProjectTfjs(dir), { ok: true, found: [] });
  });

  test('a package.json with no readable version is an incomplete install, said as such', () => {
    assert.match(
      refused(project('garbled', { '@tensorflow/tfjs': '<not json>' })),
      /^This project's @tensorflow\/tfjs \(.*\) has no readable version \(.*\): it is not a complete install\..* reinstall it with `npm install @tensorflow\/tfjs@\^4\.22\.0`/,
    );
    assert.match(refused(project('no-version', { '@tensorflow/tfjs': '{"name":"@tensorflow/tfjs"}' })), /has no readable version \(its version is undefined\)/);
  });
});

describe('a backend package joining the engine', () => {
  const WASM = '@tensorflow/tfjs-backend-wasm';
  // As the runtime is installed: its own package.json, the wasm backend it ships beside it.
  const runtime = path.join(project('runtime', { [WASM]: '4.22.0' }), 'runtime');
  fs.mkdirSync(runtime, { recursive: true });
  fs.writeFileSync(path.join(runtime, '..', 'package.json'), JSON.stringify({ name: 'tfjs-callback-debugger', version: '0.1.0' }));

  test('the same minor version fits; a project without the package and none shipped has nothing to say', () => {
    const dir = project('wasm-own', { '@tensorflow/tfjs': '3.21.0', [WASM]: '3.21.0' });
    assert.equal(backendPackageProblem(WASM, '3.21.0', { projectDir: dir, runtimeDir: runtime }), undefined);
    assert.equal(backendPackageProblem(WASM, '4.22.0', { projectDir: project('wasm-none', {}), runtimeDir: runtime }), undefined);
    assert.equal(backendPackageProblem(WASM, '4.0.0', { projectDir: project('wasm-none-2', {}) }), undefined);
  });

  test("the shipped 4.22 in a 4.0 engine: refused in one line naming it and the project's own install", () => {
    const dir = project('wasm-mismatch', { '@tensorflow/tfjs': '4.0.0' });
    assert.equal(
      backendPackageProblem(WASM, '4.0.0', { projectDir: dir, runtimeDir: runtime }),
      `${WASM} 4.22.0 (shipped with tfjs-callback-debugger) is built for tfjs-core 4.22, not this project's 4.0.0: \`npm install ${WASM}@4.0.0\` in ${dir} to use it`,
    );
  });

  test("the project's own comes first: a 3.21 project with its 3.21 wasm fits, though 4.22 is shipped", () => {
    const dir = project('wasm-first', { [WASM]: '3.21.1' });
    assert.equal(backendPackageProblem(WASM, '3.21.0', { projectDir: dir, runtimeDir: runtime }), undefined);
  });

  test('a copy already found (the native backend looks in several places): the same rule, by its folder', () => {
    const dir = project('node-copy', { '@tensorflow/tfjs-node': '4.22.0' });
    const copy = packageAt(path.join(dir, 'node_modules', '@tensorflow', 'tfjs-node'));
    assert.deepEqual([copy.name, copy.version], ['@tensorflow/tfjs-node', '4.22.0']);
    assert.equal(backendCopyProblem(copy, '4.22.0', { projectDir: dir }), undefined);
    assert.equal(
      backendCopyProblem(copy, '3.18.0', { projectDir: dir }),
      `@tensorflow/tfjs-node 4.22.0 (${path.dirname(copy.manifest)}) is built for tfjs-core 4.22, not this project's 3.18.0: \`npm install @tensorflow/tfjs-node@3.18.0\` in ${dir} to use it`,
    );
  });

  test('before 3.21 no wasm starts on Node 18+ (tensorflow/tfjs#6857): said instead of the install that would not help', () => {
    const dir = project('wasm-318', { '@tensorflow/tfjs': '3.18.0', [WASM]: '3.18.0' });
    const problem = backendPackageProblem(WASM, '3.18.0', { projectDir: dir, runtimeDir: runtime, nodeVersion: '20.19.0' });
    assert.equal(
      problem,
      `no ${WASM} for tfjs-core 3.18.0 starts on Node 20 (it fetches its .wasm with fetch(): tensorflow/tfjs#6857, fixed in 3.21.0); upgrade to @tensorflow/tfjs@^4.22.0 (or ^3.21.0) for wasm`,
    );
    assert.equal(backendPackageProblem(WASM, '3.18.0', { projectDir: dir, runtimeDir: runtime, nodeVersion: '16.20.2' }), undefined, 'Node 16 has no fetch()');
    assert.equal(backendPackageProblem('@tensorflow/tfjs-node', '3.18.0', { projectDir: dir, runtimeDir: runtime }), undefined, 'not installed');
  });
});

describe('several @tensorflow packages outside the range (issue 43)', () => {
  /** `project` plus packages installed beside, as npm hoists a dependency's dependencies, not in package.json. */
  function withHoisted(name: string, direct: Record<string, string>, hoisted: Record<string, string>): string {
    const dir = project(name, direct);
    for (const [pkg, version] of Object.entries(hoisted)) {
      const pkgDir = path.join(dir, 'node_modules', ...pkg.split('/'));
      fs.mkdirSync(pkgDir, { recursive: true });
      fs.writeFileSync(path.join(pkgDir, 'package.json'), JSON.stringify({ name: pkg, version }));
    }
    return dir;
  }

  test('tfjs 2.8.6 beside tfjs-node 2.8.6: one message naming each, one command for the two the others come with', () => {
    const dir = withHoisted(
      'abalone',
      { '@tensorflow/tfjs': '2.8.6', '@tensorflow/tfjs-node': '2.8.6' },
      { '@tensorflow/tfjs-core': '2.8.6', '@tensorflow/tfjs-layers': '2.8.6' },
    );
    const check = checkProjectTfjs(dir);
    assert.equal(check.ok, false);
    if (check.ok) return;
    assert.equal(
      check.message,
      `This project has @tensorflow/tfjs 2.8.6, @tensorflow/tfjs-core 2.8.6, @tensorflow/tfjs-node 2.8.6, @tensorflow/tfjs-layers 2.8.6 in ${path.join(dir, 'node_modules')}, ` +
        `which tfjs-callback-debugger does not support: it supports TensorFlow.js ${SUPPORTED_TFJS_RANGE} (3.x and 4.x). ` +
        `Upgrade them together with one command in ${dir}: \`npm install @tensorflow/tfjs@^4.22.0 @tensorflow/tfjs-node@^4.22.0\` ` +
        '(the others come with these; or `npm install @tensorflow/tfjs@^3.21.0 @tensorflow/tfjs-node@^3.21.0`, the last 3.x, a smaller step from 2.x).',
    );
  });

  test('an old tfjs-core no package of the list brings: the command names it', () => {
    const dir = withHoisted('third-party-core', { '@tensorflow/tfjs-core': '1.7.4' }, { '@tensorflow/tfjs-converter': '1.7.4' });
    const check = checkProjectTfjs(dir);
    assert.equal(check.ok, false);
    if (check.ok) return;
    assert.match(check.message, /one command in .*: `npm install @tensorflow\/tfjs-core@\^4\.22\.0 @tensorflow\/tfjs-converter@\^4\.22\.0` \(or /);
  });

  test('a supported tfjs beside an old tfjs-node is no refusal (auto passes over that tfjs-node, saying why)', () => {
    const dir = withHoisted('new-tfjs-old-node', { '@tensorflow/tfjs': '4.22.0', '@tensorflow/tfjs-node': '2.8.6' }, { '@tensorflow/tfjs-core': '4.22.0' });
    assert.equal(checkProjectTfjs(dir).ok, true);
  });
});
