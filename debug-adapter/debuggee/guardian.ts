/**
 * The guardian: started by the adapter with a pipe as stdin, it starts the debuggee in a process
 * group of its own and kills that whole group when the pipe closes, which happens however the
 * adapter ends, SIGKILL included. A paused or not-yet-attached debuggee cannot watch for that
 * itself. Exits with the debuggee's exit code.
 *
 * argv: node guardian.js <json: { command, args, cwd }>
 */
import { spawn } from 'node:child_process';

const spec = JSON.parse(process.argv[2] ?? '{}') as { command: string; args: string[]; cwd: string };
const child = spawn(spec.command, spec.args, { cwd: spec.cwd, env: process.env, stdio: ['ignore', 'inherit', 'inherit'], detached: true });

let killed = false;
function killGroup(): void {
  if (killed || child.pid === undefined) return;
  killed = true;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // The group is already gone.
  }
}

process.stdin.on('data', () => {});
process.stdin.on('end', killGroup);
process.stdin.on('error', killGroup);
process.on('SIGTERM', killGroup);
process.on('SIGINT', killGroup);
process.on('SIGHUP', killGroup);

child.on('error', (err) => {
  process.stderr.write(`could not start ${spec.command}: ${err.message}\n`);
  process.exit(127);
});
child.on('exit', (code, signal) => {
  // Children the program left behind go with it.
  const wasKilled = killed;
  killed = false;
  killGroup();
  process.exitCode = code ?? (signal ? 128 + (signal === 'SIGKILL' ? 9 : 15) : 1);
  if (wasKilled) process.exitCode = 137;
  process.exit();
});
