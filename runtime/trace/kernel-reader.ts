/**
 * What a kernel mapping reads and writes (op-mapping.ts): a kernel node as the mapping sees it,
 * the TensorFlow nodes it becomes, and the Kernel reader that counts every input and attr read,
 * so an attr no mapper placed refuses the kernel instead of being lost.
 */
import type { AttrValue } from './graph-def.js';
import type { TensorSpec } from './graph.js';

/** A kernel node as the mapping sees it: its inputs' specs by key (array inputs: "0", "1", …). */
export interface KernelView {
  readonly kernel: string;
  readonly attrs: Readonly<Record<string, unknown>>;
  readonly inputs: readonly { readonly key: string; readonly spec: TensorSpec }[];
  readonly outputs: readonly TensorSpec[];
}

/** A value the TF op takes as an input tensor where the kernel took an attr. */
export interface ConstInput {
  /** The Const node is named `<node>/<suffix>`. */
  readonly suffix: string;
  readonly dtype: 'float32' | 'int32' | 'bool';
  readonly shape: readonly number[];
  readonly values: readonly number[];
}

/** A kernel input by key, a Const made for the node, or an output of one of the kernel's earlier steps. */
export type MappedInput = { readonly input: string } | { readonly constant: ConstInput } | { readonly step: string };

export interface MappedNode {
  readonly op: string;
  readonly inputs: readonly MappedInput[];
  readonly attr: Readonly<Record<string, AttrValue>>;
}

/** A node computed before the kernel's last: named `<kernel node>/<step>`. */
export interface MappedStep extends MappedNode {
  readonly step: string;
}

/** The TensorFlow node named as the kernel node, giving its outputs, after the steps it reads (none for most). */
export interface MappedKernel extends MappedNode {
  readonly steps?: readonly MappedStep[];
}

/** The kernel cannot be written as TensorFlow ops that TensorFlow and tfjs-converter run the same way. */
export class Unmappable extends Error {}

/** What a mapper reads: inputs by key, attrs by name (reads are counted, so none is forgotten). */
export class Kernel {
  private readonly read = new Set<string>();
  constructor(readonly view: KernelView) {}

  /** The kernel's inputs must be exactly `keys` (optional ones end in `?`); returns them as inputs. */
  take(...keys: string[]): MappedInput[] {
    const present = new Set(this.view.inputs.map((i) => i.key));
    const wanted = keys.map((k) => k.replace(/\?$/, ''));
    const extra = [...present].filter((k) => !wanted.includes(k));
    if (extra.length > 0) throw new Unmappable(`its input(s) ${extra.map((k) => `'${k}'`).join(', ')} have no TensorFlow counterpart here`);
    const missing = keys.filter((k) => !k.endsWith('?') && !present.has(k));
    if (missing.length > 0) throw new Unmappable(`it lacks input(s) ${missing.join(', ')}`);
    return wanted.filter((k) => present.has(k)).map((input) => ({ input }));
  }

  /** Array inputs (Concat, AddN, Pack), in order. */
  all(): MappedInput[] {
    return this.view.inputs.map((i) => ({ input: i.key }));
  }

  spec(key: string): TensorSpec {
    const found = this.view.inputs.find((i) => i.key === key);
    if (!found) throw new Unmappable(`it has no input '${key}'`);
    return found.spec;
  }

  attr<T = unknown>(name: string): T {
    this.read.add(name);
    return this.view.attrs[name] as T;
  }

  number(name: string): number {
    const v = this.attr(name);
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new Unmappable(`its attr ${name} is ${JSON.stringify(v)}, not a number`);
    return v;
  }

  integers(name: string): number[] {
    const v = this.attr(name);
    const list = typeof v === 'number' ? [v] : v;
    if (!Array.isArray(list) || !list.every(Number.isInteger)) throw new Unmappable(`its attr ${name} is ${JSON.stringify(v)}, not a list of integers`);
    return list as number[];
  }

  /** Attrs with a value that no mapper read: each would be lost. */
  unread(): string[] {
    return Object.entries(this.view.attrs)
      .filter(([name, v]) => v !== undefined && v !== null && !this.read.has(name))
      .map(([name]) => name);
  }
}
