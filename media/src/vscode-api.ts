/**
 * The webview's handle on VS Code: `acquireVsCodeApi()` may be called once per page, so this
 * module calls it once and hands out a typed wrapper.
 */
import type { WebviewMessage } from './protocol.js';

interface RawVsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): RawVsCodeApi;

export interface VsCodeApi {
  post(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

let api: VsCodeApi | undefined;

export function vscodeApi(): VsCodeApi {
  if (api) return api;
  const raw = acquireVsCodeApi();
  api = {
    post: (message) => raw.postMessage(message),
    getState: () => raw.getState(),
    setState: (state) => raw.setState(state),
  };
  return api;
}
