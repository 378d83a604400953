/**
 * Language server benchmarks (issue 4), against the real built server (out/server.cjs --stdio)
 * over LSP: the time from didChange (a keystroke-sized edit) and from didOpen of a generated
 * 2,000-line graph program to its publishDiagnostics, against the same for a 200-line program
 * measured in the same run (alternating rounds, so drift hits both alike). Target: ≤ 200 ms.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { editProgram, generateProgram, type GeneratedProgram } from '../test/fixtures/lsp/generate.js';
import { LspClient } from '../test/helpers/lsp.js';
import { checkModel } from '../extension/server/model-checks.js';
import { repoRoot } from '../test/fixtures/spawn.js';

const TARGET_MS = 200;
const WARMUP_EDITS = 5;
const EDITS = 15;
const OPENS = 5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

interface Subject {
  readonly lines: number;
  readonly program: GeneratedProgram;
  readonly client: LspClient;
  readonly file: string;
  uri: string;
  edits: number;
  firstOpenMs: number;
  readonly changeMs: number[];
  readonly openMs: number[];
}

async function timed(body: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await body();
  return performance.now() - started;
}

async function edit(s: Subject): Promise<number> {
  const text = editProgram(s.program, 1000 + s.edits++);
  return timed(async () => {
    const version = await s.client.change(s.uri, text);
    await s.client.diagnostics(s.uri, { version });
  });
}

/** didOpen of a new copy of the program (a new root in a warm server) to its diagnostics. */
async function openCopy(s: Subject, n: number): Promise<number> {
  const file = s.file.replace(/\.ts$/, `-copy${n}.ts`);
  fs.writeFileSync(file, s.program.text);
  let uri = '';
  const ms = await timed(async () => {
    const mark = s.client.mark();
    uri = await s.client.open(file, s.program.text);
    await s.client.diagnostics(uri, { after: mark });
  });
  await s.client.closeDocument(uri);
  return ms;
}

export async function lspBenchmarks(print: (line: string) => void): Promise<void> {
  print('');
  print(`language server (out/server.cjs --stdio over LSP, real TypeScript LanguageService) · ${os.cpus().length} cores · load ${os.loadavg()[0]!.toFixed(1)}`);
  // Inside the repository (.scratch/ is git-ignored), so the tsconfig resolves the runtime's types as in a real project.
  fs.mkdirSync(path.join(repoRoot, '.scratch'), { recursive: true });
  const dir = fs.mkdtempSync(path.join(repoRoot, '.scratch', 'lsp-bench-'));
  const subjects: Subject[] = [];
  try {
    for (const lines of [200, 2000]) {
      const program = generateProgram(lines);
      const file = path.join(dir, `program-${lines}.ts`);
      fs.writeFileSync(file, program.text);
      const client = await LspClient.start();
      const s: Subject = { lines, program, client, file, uri: '', edits: 0, firstOpenMs: 0, changeMs: [], openMs: [] };
      subjects.push(s);
      s.firstOpenMs = await timed(async () => {
        s.uri = await client.open(file, program.text);
        const diagnostics = await client.diagnostics(s.uri);
        if (diagnostics.length !== program.mismatches)
          throw new Error(`expected ${program.mismatches} diagnostics for the ${lines}-line program, got ${diagnostics.length}`);
      });
      for (let i = 0; i < WARMUP_EDITS; i++) await edit(s);
    }
    for (let r = 0; r < EDITS; r++) {
      for (const s of r % 2 === 0 ? subjects : [...subjects].reverse()) s.changeMs.push(await edit(s));
    }
    for (let r = 0; r < OPENS; r++) {
      for (const s of r % 2 === 0 ? subjects : [...subjects].reverse()) s.openMs.push(await openCopy(s, r));
    }
  } finally {
    for (const s of subjects) await s.client.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const [small, big] = subjects as [Subject, Subject];
  const calls = (s: Subject) => (s.program.text.match(/(?:numpyFunction|pyFunction)\(/g) ?? []).length;
  for (const [what, pick] of [
    [`didChange → publishDiagnostics (median of ${EDITS} edits)`, (s: Subject) => s.changeMs],
    [`didOpen → publishDiagnostics, warm server (median of ${OPENS})`, (s: Subject) => s.openMs],
  ] as const) {
    const b = median(pick(big));
    const a = median(pick(small));
    print(
      `${`${what}, ${big.lines}-line program (${calls(big)} wrapper calls)`.padEnd(96)} ${b.toFixed(0).padStart(5)} ms (p90 ${quantile(pick(big), 0.9).toFixed(0)})` +
        `  vs ${small.lines}-line (${calls(small)} calls) ${a.toFixed(0)} ms  ratio ${(b / a).toFixed(2)}x  target ≤ ${TARGET_MS} ms: ${b <= TARGET_MS ? 'met' : 'MISSED'}`,
    );
  }
  modelScaling(print);
  print(
    `first didOpen in a fresh server (loads TypeScript's libs and the runtime's and tfjs's types once): ${big.lines}-line ${big.firstOpenMs.toFixed(0)} ms, ${small.lines}-line ${small.firstOpenMs.toFixed(0)} ms`,
  );
}

/** A model.json of `n` callback nodes, each in a library function without a signature name (no location: the line lookup path). */
function callbackModel(n: number): string {
  const node = (i: number) => ({
    name: `cb_${i}`,
    op: 'EagerPyFunc',
    input: ['x'],
    attr: { token: { s: Buffer.from(`pyfunc_${i}`).toString('base64') }, Tin: { list: { type: ['DT_FLOAT'] } }, Tout: { list: { type: ['DT_FLOAT'] } } },
  });
  const fns = Array.from({ length: n }, (_, i) => ({ nodeDef: [node(i)] }));
  return JSON.stringify({ format: 'graph-model', modelTopology: { node: [], library: { function: fns } }, weightsManifest: [] }, null, 2);
}

/** Issue 11: model.json diagnostics grow linearly with the callback nodes (one split per node made 4,000 nodes take 35 s). */
export function modelScaling(print: (line: string) => void): void {
  const context = { modelFile: '/m/model.json', located: { missing: '/m/callbacks.ts', via: 'convention' as const }, relativeTo: '/m' };
  const [small, big] = [1000, 4000].map(callbackModel) as [string, string];
  const ms: [number[], number[]] = [[], []];
  for (let r = 0; r < 7; r++) {
    for (const [i, text] of (r % 2 === 0
      ? [
          [0, small],
          [1, big],
        ]
      : [
          [1, big],
          [0, small],
        ]) as [0 | 1, string][]) {
      const started = performance.now();
      checkModel(text, context);
      ms[i].push(performance.now() - started);
    }
  }
  const [a, b] = [median(ms[0]), median(ms[1])];
  print(
    `${'model.json diagnostics, 4,000 vs 1,000 callback nodes (checkModel, median of 7)'.padEnd(96)} ${b.toFixed(0).padStart(5)} ms vs ${a.toFixed(0)} ms  ratio ${(b / a).toFixed(2)}x  target ≤ 8x (linear 4x, quadratic 16x): ${b / a <= 8 ? 'met' : 'MISSED'}`,
  );
}

// `tsx bench/lsp.bench.ts` runs it alone.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(repoRoot, 'bench', 'lsp.bench.ts')) {
  await lspBenchmarks((line) => console.log(line));
}
