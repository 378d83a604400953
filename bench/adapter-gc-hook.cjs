// Preloaded into the debug adapter's process by bench/adapter-memory.bench.ts (NODE_OPTIONS=--require):
// on SIGUSR2 it forces a full GC and appends the adapter's memory to a file, so the bench reads the
// heap and RSS after GC without any hook in the adapter itself. With TFJS_BENCH_ADAPTER_SNAPSHOTS
// set it also writes a heap snapshot there, for finding what grows.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const v8 = require('node:v8');
const vm = require('node:vm');

const out = process.env.TFJS_BENCH_ADAPTER_MEMORY;
const snapshots = process.env.TFJS_BENCH_ADAPTER_SNAPSHOTS;
// Only the adapter: the debuggee the adapter starts must not inherit the hook (the bench clears its NODE_OPTIONS too).
delete process.env.NODE_OPTIONS;
if (out) {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc');
  let count = 0;
  process.on('SIGUSR2', () => {
    // Twice: the first collection's finalizers free more for the second.
    gc();
    gc();
    const { heapUsed, external, rss } = process.memoryUsage();
    count += 1;
    if (snapshots) v8.writeHeapSnapshot(path.join(snapshots, `adapter-${count}.heapsnapshot`));
    fs.appendFileSync(out, `${JSON.stringify({ count, heapUsed, external, rss })}\n`);
  });
}
