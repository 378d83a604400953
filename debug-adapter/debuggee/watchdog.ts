/**
 * The watchdog: kills the debuggee's whole process group when the adapter goes away, however it
 * goes (SIGKILL included: its end of this process's stdin pipe closes). A paused debuggee cannot
 * watch for that itself, and its children would outlive it.
 *
 * argv: node watchdog.js <process group id>
 * It says "ready" on stdout once it watches, and leaves when the group is gone.
 */
const group = Number(process.argv[2]);

function killGroup(): void {
  try {
    process.kill(-group, 'SIGKILL');
  } catch {
    // Already gone.
  }
  process.exit(0);
}

process.stdin.on('data', () => {});
process.stdin.on('end', killGroup);
process.stdin.on('error', killGroup);
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, killGroup);

// Leave quietly once the debuggee and everything it started have exited.
setInterval(() => {
  try {
    process.kill(-group, 0);
  } catch {
    process.exit(0);
  }
}, 500);

process.stdout.write('ready\n');
