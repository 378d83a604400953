/**
 * How the .vsix is packaged, for `npm run package` (scripts/package.ts) and the tests that package
 * it. No repository to rewrite the README's relative links against: they stay relative, and the
 * pictures it shows (docs/images/) and the docs/ pages it links to ship in the .vsix, where VS Code's
 * extension page finds them (test/docs/links.test.ts checks the pictures against .vscodeignore).
 *
 * The package is platform-specific: tsx compiles a user's TypeScript with esbuild, a native binary
 * npm installs per platform (@esbuild/<platform>). Each target's .vsix carries its own.
 */
import os from 'node:os';

/** The VS Code targets the extension is packaged for; each is also the name of an @esbuild/ package. */
export const PACKAGE_TARGETS = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64'] as const;
export type PackageTarget = (typeof PACKAGE_TARGETS)[number];

/** This machine's target, whose esbuild binary npm installed here; undefined on a platform not packaged for. */
export function hostTarget(): PackageTarget | undefined {
  const target = `${process.platform}-${os.arch()}`;
  return PACKAGE_TARGETS.find((t) => t === target);
}

/** The esbuild binary inside a target's .vsix, relative to its extension folder. */
export function esbuildBinary(target: PackageTarget): string {
  return `node_modules/@esbuild/${target}/${target.startsWith('win32-') ? 'esbuild.exe' : 'bin/esbuild'}`;
}

/** vsce's arguments for one target's package (without --out). */
export function vscePackageArgs(target: PackageTarget | undefined): string[] {
  return ['package', '--allow-missing-repository', '--no-rewrite-relative-links', ...(target ? ['--target', target] : [])];
}

/** The package of this machine's target, built from the working tree as it is (the e2e installs it). */
export const VSCE_PACKAGE_ARGS: readonly string[] = vscePackageArgs(hostTarget());
