/**
 * The CLI over a long run: `tfjs-callbacks run` of a program that makes 100,000 callback calls
 * (bench/programs/many-calls.mjs), the program's heap after a forced GC at 1,000, 10,000 and
 * 100,000 calls, with and without --trace, beside the same program under plain node with the
 * runtime's loader (no CLI). Figures and ratios, not asserted (test/hostile/cli.test.ts counts the
 * invocation records kept). Run alone: `npx tsx bench/cli-memory.bench.ts`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const program = path.join(root, 'bench', 'programs', 'many-calls.mjs');
const cli = path.join(root, 'runtime', 'cli', 'main.ts');
const register = pathToFileURL(path.join(root, 'runtime', 'loader', 'register.ts')).href;
const CALLS = 100_000;

/** The heap after GC (bytes) by call count, as the program prints it (the CLI's own lines skipped). */
function heapsOf(argv: string[], env: Record<string, string>): Promise<Map<number, number>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, {
      cwd: root,
      env: { ...process.env, NODE_OPTIONS: '--expose-gc', BENCH_CALLS: String(CALLS), ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const heaps = new Map<number, number>();
    let rest = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop()!;
      for (const line of lines) {
        const m = /^heap-after-gc (\d+) (\d+)$/.exec(line);
        if (m) heaps.set(Number(m[1]), Number(m[2]));
      }
    });
    child.once('exit', (code) => (code === 0 ? resolve(heaps) : reject(new Error(`${argv.join(' ')} exited ${code}`))));
  });
}

const mb = (bytes: number | undefined) => `${((bytes ?? Number.NaN) / 2 ** 20).toFixed(1)} MB`;

export async function cliMemoryBenchmarks(print: (line: string) => void): Promise<void> {
  print(`\n— CLI memory over ${CALLS.toLocaleString('en-US')} callback calls (heap after forced GC, program process) —`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tfjs-cb-bench-cli-'));
  try {
    const trace = path.join(dir, 'trace.json');
    const runs: [string, string[], Record<string, string>][] = [
      ['plain node + loader (baseline)', ['--import', 'tsx', '--import', register, program], { TFJS_BACKEND: 'cpu' }],
      ['tfjs-callbacks run', ['--import', 'tsx', cli, 'run', program, '--backend', 'cpu'], {}],
      ['tfjs-callbacks run --trace', ['--import', 'tsx', cli, 'run', program, '--backend', 'cpu', '--trace', trace], {}],
    ];
    for (const [name, argv, env] of runs) {
      const heaps = await heapsOf(argv, env);
      const first = heaps.get(1_000);
      const last = heaps.get(CALLS);
      const traced = name.endsWith('--trace') ? ` · trace file ${mb(statSync(trace).size)}` : '';
      print(
        `${name.padEnd(32)} 1,000: ${mb(first).padStart(8)}  10,000: ${mb(heaps.get(10_000)).padStart(8)}  ${CALLS.toLocaleString('en-US')}: ${mb(last).padStart(8)}  ratio ${((last ?? Number.NaN) / (first ?? Number.NaN)).toFixed(2)}x${traced}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await cliMemoryBenchmarks((line) => console.log(line));
