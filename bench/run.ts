/**
 * `npm run bench`: every benchmark, printed as ratios against a baseline measured in the same run.
 */
import os from 'node:os';
import { runtimeBenchmarks } from './runtime.bench.js';

const print = (line: string) => console.log(line);
print(`tfjs-callback-debugger benchmarks · node ${process.version} · ${os.cpus().length} cores · ${os.cpus()[0]?.model ?? ''}`);
print('Each line: median µs per call, and the ratio to a baseline measured in the same run.');
await runtimeBenchmarks(print);
