/**
 * model.json's shape as tensorflowjs_converter writes it: types only, so the modules that read a
 * model (model-files.ts, graph-cycles.ts, callback-nodes.ts, …) share them without importing one
 * another.
 */

export interface ModelJson {
  format?: string;
  modelTopology?: { node?: GraphDefNode[]; library?: { function?: { signature?: { name?: string }; nodeDef?: GraphDefNode[] }[] }; versions?: unknown };
  weightsManifest?: { paths: string[]; weights: unknown[] }[];
  [key: string]: unknown;
}

export interface GraphDefNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, RawAttr>;
}

export interface RawAttr {
  s?: string;
  b?: boolean;
  i?: string | number;
  type?: string | number;
  list?: { type?: (string | number)[]; s?: string[] };
  [key: string]: unknown;
}
