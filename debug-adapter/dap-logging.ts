/**
 * The DAP library's logger, set up and off. LoggingDebugSession logs every message in and out, and
 * its logger queues what it is given until it is set up (mock-debug sets it up at launch): never
 * set up, a session kept the text of every DAP message for as long as it ran (the adapter's RSS
 * tripled over 2,000 stops). An inline session (the extension host's) never runs start(), which
 * makes the logger: it is made here as well, once the first request has come.
 */
import { Logger, logger } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';

export function quietDapLogger(sendEvent: (event: DebugProtocol.Event) => void): void {
  logger.init(sendEvent, undefined, false);
  logger.setup(Logger.LogLevel.Stop, false);
}
