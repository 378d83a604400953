/**
 * The graph view's handle on VS Code: `acquireVsCodeApi()` may be called once per page; this
 * wraps it with the graph protocol's message type.
 */
import type { GraphViewMessage } from '../graph-protocol.js';

interface RawVsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): RawVsCodeApi;

export interface GraphHost {
  post(message: GraphViewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

export function acquireHost(): GraphHost {
  const raw = acquireVsCodeApi();
  return { post: (message) => raw.postMessage(message), getState: () => raw.getState(), setState: (state) => raw.setState(state) };
}
