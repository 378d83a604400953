/**
 * A traced graph as a TF.js graph model (model.json + one weights shard), the way
 * tensorflowjs_converter writes one: inputs are Placeholders, captured tensors and variables
 * (their values now) are Consts, kernels are TensorFlow ops (op-mapping.ts), callbacks are
 * EagerPyFunc / PyFunc / PyFuncStateless nodes that loadCallbackModel binds by name or token.
 * Everything is checked before a file is written: one unmappable node and nothing is written.
 */
import { formatCallSite, type CallSite } from '../callsite.js';
import { parseTout } from '../tout/tout.js';
import { tf, type Tensor } from '../tf.js';
import { bool, dtype, dtypes, enumName, type AttrValue, type GraphDefNode, NODE_NAME, shape, str } from './graph-def.js';
import type { CallbackNode, OutputStructure, TensorSpec, TracedGraph, ValueRef, WrapperReplay } from './graph.js';
import { type ConstInput, type MappedInput, Unmappable } from './kernel-reader.js';
import { mapKernel } from './op-mapping.js';

/** The model's files, not yet written. */
export interface GraphModelFiles {
  readonly modelJson: ModelJsonOut;
  readonly weights: Buffer;
  /** The callback nodes, to bind on load: `callbacks: { [name or token]: fn }`. */
  readonly callbacks: readonly ExportedCallback[];
}

export interface ExportedCallback {
  readonly node: string;
  /** The callback's name (the node name's last part): the key that binds it. */
  readonly name: string;
  readonly token: string;
  readonly op: CallbackNode['op'];
}

export interface ModelJsonOut {
  readonly format: 'graph-model';
  readonly generatedBy: string;
  readonly convertedBy: string;
  readonly modelTopology: { readonly node: GraphDefNode[]; readonly library: object; readonly versions: { readonly producer: number } };
  readonly signature: { readonly inputs: Record<string, TensorInfo>; readonly outputs: Record<string, TensorInfo> };
  readonly weightsManifest: { readonly paths: string[]; readonly weights: WeightEntry[] }[];
}

interface TensorInfo {
  readonly name: string;
  readonly dtype: string;
  readonly tensorShape: { readonly dim: readonly { readonly size: string }[] };
}

interface WeightEntry {
  readonly name: string;
  readonly shape: number[];
  readonly dtype: 'float32' | 'int32' | 'bool';
}

/** One node the export cannot write, and why. */
export interface UnmappedNode {
  readonly node: string;
  /** The kernel, or the callback's op. */
  readonly op: string;
  readonly reason: string;
  readonly callSite?: CallSite;
}

/** The export met nodes it cannot write: each is listed; nothing was written. */
export class GraphExportError extends Error {
  override name = 'GraphExportError';
  constructor(
    message: string,
    readonly unmapped: readonly UnmappedNode[],
  ) {
    super(message);
  }
}

export const WEIGHTS_FILE = 'group1-shard1of1.bin';

/** The parts of a concrete function the export reads: its graph, callbacks' calls, captures' tensors. */
export interface ExportSource {
  readonly graph: TracedGraph;
  readonly replays: ReadonlyMap<number, WrapperReplay>;
  readonly captureTensors: readonly Tensor[];
}

export function buildGraphModel(source: ExportSource): GraphModelFiles {
  return new Builder(source).build();
}

class Builder {
  private readonly nodes: GraphDefNode[] = [];
  private readonly weights: { entry: WeightEntry; bytes: Uint8Array }[] = [];
  private readonly unmapped: UnmappedNode[] = [];
  private readonly callbacks: ExportedCallback[] = [];
  private readonly names = new Set<string>();
  /** Graph node index → its GraphDef name (callbacks are renamed after themselves). */
  private readonly nodeNames: string[] = [];
  private readonly captureNames: string[] = [];
  private readonly graph: TracedGraph;

  constructor(private readonly source: ExportSource) {
    this.graph = source.graph;
  }

  build(): GraphModelFiles {
    const { graph } = this;
    const inputs = graph.inputs.map((spec, i) => this.placeholder(`input_${i}`, spec));
    graph.captures.forEach((capture, i) => this.capture(i, capture.kind === 'variable' && capture.name ? capture.name : undefined));
    const live = this.liveNodes();
    for (const node of graph.nodes) {
      this.nodeNames[node.index] = node.type === 'callback' ? this.callbackName(node) : node.name;
    }
    for (const node of graph.nodes) {
      if (!live.has(node.index)) continue;
      if (node.type === 'kernel') this.kernel(node);
      else this.callback(node);
    }
    const outputs = this.outputs(live);
    if (this.unmapped.length > 0) throw new GraphExportError(unmappedMessage(graph.name, this.unmapped), this.unmapped);
    const weights = Buffer.concat(this.weights.map((w) => w.bytes));
    const modelJson: ModelJsonOut = {
      format: 'graph-model',
      generatedBy: `tfjs ${tf.version.tfjs}`,
      convertedBy: 'tfjs-callback-debugger tfFunction export',
      modelTopology: { node: this.nodes, library: {}, versions: { producer: 1 } },
      signature: { inputs: Object.fromEntries(inputs), outputs: Object.fromEntries(outputs) },
      weightsManifest: [{ paths: [WEIGHTS_FILE], weights: this.weights.map((w) => w.entry) }],
    };
    return { modelJson, weights, callbacks: this.callbacks };
  }

  /**
   * Nodes the outputs read, and callbacks (run for their effects, as every replay runs them) with
   * what they read. Other kernels are dropped: TF.js would take a childless node for an output.
   */
  private liveNodes(): Set<number> {
    const live = new Set<number>();
    const visit = (ref: ValueRef) => {
      if (ref.kind !== 'node' || live.has(ref.node)) return;
      live.add(ref.node);
      for (const input of this.graph.nodes[ref.node]!.inputs) visit(input.ref);
    };
    for (const ref of tensorRefs(this.graph.output)) visit(ref);
    for (const node of this.graph.nodes) if (node.type === 'callback') visit({ kind: 'node', node: node.index, output: 0 });
    return live;
  }

  private add(node: GraphDefNode): void {
    this.names.add(node.name);
    this.nodes.push(node);
  }

  private placeholder(name: string, spec: TensorSpec): [string, TensorInfo] {
    this.add({ name, op: 'Placeholder', attr: { dtype: dtype(spec.dtype), shape: shape(spec.shape) } });
    return [name, tensorInfo(`${name}:0`, spec)];
  }

  private capture(index: number, variable: string | undefined): void {
    const name = variable && NODE_NAME.test(variable) ? `capture${index}_${variable}` : `capture${index}`;
    this.captureNames[index] = name;
    const t = this.source.captureTensors[index]!;
    if (t.isDisposed) {
      this.unmapped.push({ node: name, op: 'Const', reason: `it reads variable '${variable}', which was disposed: keep it alive until the export` });
      return;
    }
    if (t.dtype !== 'float32' && t.dtype !== 'int32' && t.dtype !== 'bool') {
      this.unmapped.push({ node: name, op: 'Const', reason: `it is a captured ${t.dtype} tensor; the export writes float32, int32 and bool weights` });
      return;
    }
    this.constNode(name, { suffix: '', dtype: t.dtype, shape: t.shape, values: Array.from(t.dataSync() as ArrayLike<number>) });
  }

  private constNode(name: string, c: ConstInput): void {
    // The value is the weight of the same name, as tensorflowjs_converter writes Consts.
    this.add({ name, op: 'Const', attr: { dtype: dtype(c.dtype) } });
    const bytes =
      c.dtype === 'float32' ? new Float32Array(c.values) : c.dtype === 'int32' ? new Int32Array(c.values) : Uint8Array.from(c.values, (v) => (v ? 1 : 0));
    this.weights.push({ entry: { name, shape: [...c.shape], dtype: c.dtype }, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
  }

  private kernel(node: Extract<TracedGraph['nodes'][number], { type: 'kernel' }>): void {
    try {
      const mapped = mapKernel({
        kernel: node.kernel,
        attrs: node.attrs,
        inputs: node.inputs.map((i) => ({ key: i.key, spec: this.specOf(i.ref) })),
        outputs: node.outputs,
      });
      // A kernel written as several nodes: its steps under its name, the last node named as it.
      const input = (m: MappedInput) => {
        if ('input' in m) return this.refName(node.inputs.find((i) => i.key === m.input)!.ref);
        if ('step' in m) return `${node.name}/${m.step}`;
        const name = `${node.name}/${m.constant.suffix}`;
        this.constNode(name, m.constant);
        return name;
      };
      for (const s of mapped.steps ?? []) this.add({ name: `${node.name}/${s.step}`, op: s.op, input: s.inputs.map(input), attr: s.attr });
      this.add({ name: node.name, op: mapped.op, input: mapped.inputs.map(input), attr: mapped.attr });
    } catch (err) {
      if (!(err instanceof Unmappable)) throw err;
      this.unmapped.push({ node: node.name, op: node.kernel, reason: err.message, ...(node.callSite ? { callSite: node.callSite } : {}) });
    }
  }

  private callbackName(node: CallbackNode): string {
    // A scope before the callback's name keeps node names unique; the last part binds it (`callbacks: { name: fn }`).
    // The scope is the one it was called in (a named tf.tidy, a nested tfFunction), else the graph's name.
    const slash = node.name.lastIndexOf('/');
    const scope = slash > 0 ? node.name.slice(0, slash) : NODE_NAME.test(this.graph.name) ? this.graph.name : 'tf_function';
    let name = `${scope}/${node.callbackName}`;
    for (let k = 1; this.names.has(name) || this.nodeNames.includes(name); k++) name = `${scope}_${k}/${node.callbackName}`;
    this.names.add(name);
    return name;
  }

  private callback(node: CallbackNode): void {
    const name = this.nodeNames[node.index]!;
    const site = node.callSite ? { callSite: node.callSite } : {};
    if (!NODE_NAME.test(node.callbackName)) {
      const reason = `its name '${node.callbackName}' is no TensorFlow node name: give the callback a name of letters, digits, '_', '.' and '-'`;
      this.unmapped.push({ node: node.name, op: node.op, reason, ...site });
      return;
    }
    const call = this.source.replays.get(node.index)!;
    const input: string[] = [];
    const Tin: TensorSpec['dtype'][] = [];
    call.inp.forEach((x, i) => {
      if ('ref' in x) {
        input.push(this.refName(x.ref));
        Tin.push(this.specOf(x.ref).dtype);
        return;
      }
      // A number or list in inp: TensorFlow makes it a constant tensor, and so does the wrapper (tf.tensor).
      const literal = literalConst(x.literal);
      if (!literal) {
        this.unmapped.push({
          node: node.name,
          op: node.op,
          reason: `inp[${i}] is ${describeLiteral(x.literal)}, which the export cannot write as a constant`,
          ...site,
        });
        return;
      }
      const constName = `${name}/inp${i}`;
      this.constNode(constName, literal);
      input.push(constName);
      Tin.push(literal.dtype);
    });
    const attr: Record<string, AttrValue> = {
      token: str(node.token),
      Tin: dtypes(Tin),
      Tout: dtypes(parseTout(call.Tout, node.callbackName).dtypes),
      ...(node.op === 'EagerPyFunc' ? { is_async: bool(false) } : {}),
    };
    this.add({ name, op: node.op, input, attr });
    this.callbacks.push({ node: name, name: node.callbackName, token: node.token, op: node.op });
  }

  /** Identity nodes named after the outputs; callbacks nobody reads hang on the first by control edge, so they still run. */
  private outputs(live: Set<number>): [string, TensorInfo][] {
    const leaves = outputLeaves(this.graph.output, 'output');
    const literal = leaves.find((l) => l.ref === undefined);
    if (leaves.length === 0 || literal) {
      const reason =
        leaves.length === 0
          ? 'the function returns no tensor: a graph model has tensors as outputs'
          : `its result ${literal!.path} is a ${typeof literal!.value}, not a tensor: a graph model returns tensors only`;
      this.unmapped.push({ node: 'outputs', op: 'Identity', reason });
      return [];
    }
    const read = new Set<number>();
    for (const n of live) for (const i of this.graph.nodes[n]!.inputs) if (i.ref.kind === 'node') read.add(i.ref.node);
    for (const l of leaves) if (l.ref!.kind === 'node') read.add(l.ref!.node);
    const unread = this.graph.nodes.filter((n) => n.type === 'callback' && !read.has(n.index)).map((n) => `^${this.nodeNames[n.index]}`);
    return leaves.map((leaf, i) => {
      const name = NODE_NAME.test(leaf.path) && !this.names.has(leaf.path) ? leaf.path : `output_${i}`;
      this.add({ name, op: 'Identity', input: [this.refName(leaf.ref!), ...(i === 0 ? unread : [])], attr: { T: dtype(this.specOf(leaf.ref!).dtype) } });
      return [name, tensorInfo(`${name}:0`, this.specOf(leaf.ref!))];
    });
  }

  private refName(ref: ValueRef): string {
    if (ref.kind === 'input') return `input_${ref.index}`;
    if (ref.kind === 'capture') return this.captureNames[ref.index]!;
    const name = this.nodeNames[ref.node]!;
    return ref.output > 0 ? `${name}:${ref.output}` : name;
  }

  private specOf(ref: ValueRef): TensorSpec {
    if (ref.kind === 'input') return this.graph.inputs[ref.index]!;
    if (ref.kind === 'capture') return this.graph.captures[ref.index]!;
    return this.graph.nodes[ref.node]!.outputs[ref.output]!;
  }
}

function tensorInfo(name: string, spec: TensorSpec): TensorInfo {
  return { name, dtype: enumName(spec.dtype), tensorShape: { dim: spec.shape.map((d) => ({ size: String(d) })) } };
}

function tensorRefs(output: OutputStructure): ValueRef[] {
  return outputLeaves(output, 'output').flatMap((l) => (l.ref ? [l.ref] : []));
}

interface OutputLeaf {
  readonly path: string;
  readonly ref?: ValueRef;
  readonly value?: unknown;
}

/** The result's leaves in order: `output` for one tensor, `output_0`…, `output_<key>` for objects. */
function outputLeaves(output: OutputStructure, path: string): OutputLeaf[] {
  switch (output.kind) {
    case 'tensor':
      return [{ path, ref: output.ref }];
    case 'literal':
      return [{ path, value: output.value }];
    case 'array':
      return output.items.flatMap((item, i) => outputLeaves(item, `${path}_${i}`));
    case 'object':
      return output.entries.flatMap(([key, item]) => outputLeaves(item, `${path}_${key}`));
  }
}

/** A literal callback input as the wrapper makes it a tensor (tf.tensor: numbers float32, booleans bool). */
function literalConst(value: unknown): ConstInput | undefined {
  if (typeof value !== 'number' && typeof value !== 'boolean' && !Array.isArray(value)) return undefined;
  const flat = Array.isArray(value) ? (value as unknown[]).flat(Infinity) : [value];
  const dtype = flat.every((v) => typeof v === 'boolean') && flat.length > 0 ? 'bool' : flat.every((v) => typeof v === 'number') ? 'float32' : undefined;
  if (!dtype) return undefined;
  const shape = shapeOf(value);
  // A ragged list is no tensor: the wrapper would have refused it.
  if (shape.reduce((a, b) => a * b, 1) !== flat.length) return undefined;
  return { suffix: '', dtype, shape, values: flat.map(Number) };
}

function shapeOf(value: unknown): number[] {
  return Array.isArray(value) ? [value.length, ...(value.length > 0 ? shapeOf(value[0]) : [])] : [];
}

function describeLiteral(value: unknown): string {
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name}`;
  return value === null ? 'null' : `a ${typeof value}`;
}

function unmappedMessage(graph: string, unmapped: readonly UnmappedNode[]): string {
  const lines = unmapped.map((u) => `  - ${u.node} (${u.op})${u.callSite ? ` at ${formatCallSite(u.callSite)}` : ''}: ${u.reason}`);
  return [
    `tfFunction '${graph}' cannot be exported as a graph model: ${unmapped.length} node${unmapped.length === 1 ? '' : 's'} ` +
      'cannot be written, and nothing was written:',
    ...lines,
    `Keep such work out of the traced function, or move it into a pyFunction / numpyFunction callback (a callback is one node, which exports).`,
  ].join('\n');
}
