/**
 * What the session's modules need of it to talk to the client: its send methods (the session's own,
 * which record each answer for guardHandlers), and lines and columns as the client counts them.
 */
import type { DebugProtocol } from '@vscode/debugprotocol';

export interface Client {
  sendEvent(event: DebugProtocol.Event): void;
  sendResponse(response: DebugProtocol.Response): void;
  sendErrorResponse(response: DebugProtocol.Response, message: DebugProtocol.Message): void;
}

/** The session's conversions between the adapter's 1-based lines and columns and the client's. */
export interface ClientPositions {
  lineToClient(line: number): number;
  lineToDebugger(line: number): number;
  columnToClient(column: number): number;
  columnToDebugger(column: number): number;
}

/** An error answer: its DAP message id, and whether the client shows it to the user. */
export interface ErrorAnswer {
  readonly id: number;
  readonly showUser?: boolean;
}

/**
 * Answers `response` with the body `body` resolves to (none when it resolves to nothing), or, when it
 * throws, with `error` and the thrown error's message.
 */
export async function answer<R extends DebugProtocol.Response>(
  client: Client,
  response: R,
  error: ErrorAnswer,
  body: () => Promise<R['body']> | R['body'],
): Promise<void> {
  try {
    const answered = await body();
    if (answered !== undefined) response.body = answered;
    client.sendResponse(response);
  } catch (err) {
    client.sendErrorResponse(response, { id: error.id, format: (err as Error).message, ...(error.showUser !== undefined ? { showUser: error.showUser } : {}) });
  }
}
