/**
 * `npm run bench`: every benchmark, printed as ratios against a baseline measured in the same run.
 */
import os from 'node:os';
import { runtimeBenchmarks } from './runtime.bench.js';
import { debugBenchmarks } from './debug.bench.js';

const print = (line: string) => console.log(line);
print(`tfjs-callback-debugger benchmarks · node ${process.version} · ${os.cpus().length} cores · ${os.cpus()[0]?.model ?? ''}`);
print('Each line: median per call or per run, and the ratio to a baseline measured in the same run.');
const only = process.argv[2];
if (!only || only === 'runtime') await runtimeBenchmarks(print);
if (!only || only === 'debug') await debugBenchmarks(print);
