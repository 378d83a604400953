/**
 * How the .vsix is packaged, for the tests that package it (package.json's `package` script uses
 * the same flags). No repository to rewrite the README's relative links against: they stay
 * relative, and the images they name (docs/) ship in the .vsix, where VS Code's extension page
 * finds them.
 */
export const VSCE_PACKAGE_ARGS = ['package', '--allow-missing-repository', '--no-rewrite-relative-links'] as const;
