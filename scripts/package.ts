/**
 * `npm run package`: this machine's .vsix; `npm run package:all`: one per platform. Each has its own
 * esbuild binary (scripts/lib/package-targets.ts) and is written as tfjs-callback-debugger-<target>.vsix.
 *   npx tsx scripts/package.ts                       # this machine's target
 *   npx tsx scripts/package.ts --all                 # the five targets
 *   npx tsx scripts/package.ts --target linux-x64    # one (repeat --target for more)
 *   npx tsx scripts/package.ts --out-dir <folder>    # default: the repository root
 * Run `npm run build` first (`npm run package` does).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { packageTargets } from './lib/package-targets.js';
import { hostTarget, PACKAGE_TARGETS, type PackageTarget } from './lib/vsce-args.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { target: { type: 'string', multiple: true }, all: { type: 'boolean' }, 'out-dir': { type: 'string' } } });
// A user wants the package of their machine (45 s); all five take minutes (issue 43).
const host = hostTarget();
if (!values.all && !values.target && !host) {
  console.error(
    `this machine (${process.platform}-${process.arch}) is not one of the targets ${PACKAGE_TARGETS.join(', ')}: ` +
      'name one with --target <target>, or package all five with npm run package:all',
  );
  process.exit(2);
}
const targets = values.all ? [...PACKAGE_TARGETS] : (values.target ?? [host!]);
const unknown = targets.filter((t) => !(PACKAGE_TARGETS as readonly string[]).includes(t));
if (unknown.length > 0) {
  console.error(`unknown target ${unknown.join(', ')}: the targets are ${PACKAGE_TARGETS.join(', ')}`);
  process.exit(2);
}
const missing = ['out/extension.cjs', 'out/server.cjs', 'dist/debug-adapter/main.js', 'media/dist/inspector.js'].filter((f) => !existsSync(path.join(root, f)));
if (missing.length > 0) {
  console.error(`not built (${missing.join(', ')} missing): run npm run build first`);
  process.exit(2);
}
const outDir = path.resolve(values['out-dir'] ?? root);
packageTargets(targets as PackageTarget[], { root, outDir, log: (line) => console.log(line) });
