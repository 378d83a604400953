/**
 * What the debugger cannot do on a platform, said before it starts anything. A launched program
 * runs in a process group of its own, and that group (with the groups of the detached children it
 * started) is what ends it: at the session's end, from a watchdog shell if the adapter dies
 * (debuggee/launcher.ts), from the Debug Terminal's bridge (debuggee/bridge.ts). Windows has no
 * process groups to signal (`process.kill(-pid)`) and no /bin/sh: a launch there would leave the
 * program and its children running after the session, so it is refused instead.
 */

const INSTEAD =
  'Use VS Code in WSL (the Remote - WSL extension, which installs the linux-x64 package), or start the program with `node --inspect` and attach ("request": "attach"). ' +
  'Run Graph, the tfjs-callbacks CLI and the language server do not need process groups.';

/** Why a launch cannot work on `platform`; undefined where it can. */
export function launchUnsupported(platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform !== 'win32') return undefined;
  return `the TF.js Callbacks debugger does not launch programs on Windows: it ends a program, and the processes it started, through their process group, which Windows does not have. ${INSTEAD}`;
}

/** Why the Debug Terminal cannot work on `platform`; undefined where it can. */
export function debugTerminalUnsupported(platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform !== 'win32') return undefined;
  return `The TF.js Callbacks Debug Terminal is not available on Windows: it ends a program, and the processes it started, through their process group, which Windows does not have. ${INSTEAD}`;
}
