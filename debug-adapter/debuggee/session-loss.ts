/**
 * The one stderr line of a Debug Terminal's program whose session is lost (the bridge's worker,
 * bridge.ts, writes it and lets the program run on undebugged): why, from the socket's error code
 * and how far the session got. Its source is spelled into the worker, so it uses nothing outside
 * itself.
 */
export interface SessionLoss {
  /** The program's file name. */
  readonly program: string;
  readonly socketPath: string;
  /** The socket's error code (ENOENT, ECONNREFUSED, …); none when the adapter closed the connection. */
  readonly code: string | undefined;
  /** Whether the bridge had connected. */
  readonly connected: boolean;
  /** Whether the adapter had let the program run (`Bridge.go`). */
  readonly running: boolean;
}

export function sessionLossLine(loss: SessionLoss): string {
  const { program, socketPath, connected, running } = loss;
  // A peer that died with data unread resets the connection: that is its close.
  const code = connected && (loss.code === 'ECONNRESET' || loss.code === 'EPIPE') ? undefined : loss.code;
  let why: string;
  if (running) why = `the debug adapter went away (its connection ${code ? `failed: ${code}` : 'closed'})`;
  else if (connected) why = `the debug session closed its connection before the program started (${code ?? 'its adapter stopped or failed'})`;
  else if (code === 'ENOENT') why = `no debug session listens at ${socketPath} (ENOENT: it ended, or never started, before the program connected)`;
  else if (code === 'ECONNREFUSED') why = `no debug session listens at ${socketPath} (ECONNREFUSED: its adapter stopped or died before the program connected)`;
  else why = `cannot connect to the debug session at ${socketPath} (${code ?? 'no reason given'})`;
  return `tfjs-callbacks debug terminal: ${why}. ${program} runs ${running ? 'on ' : ''}without the debugger.\n`;
}
