// Preloaded into every server (node --require) when BENCH_CPU_PROF=1: the first SIGWINCH (a
// signal Nest's shutdown hooks leave alone) starts the V8 CPU profiler, the next writes $BENCH_PROFILE_DIR/$BENCH_PROFILE_NAME.cpuprofile, so the
// profile covers the measured window only. With BENCH_HEAP_PROF=1 it also samples allocations
// over the same window (every allocation, collected or not) into a .heapprofile. No change to the
// apps themselves.
const inspector = require('node:inspector');
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const session = new inspector.Session();
session.connect();
let running = false;
const heap = process.env.BENCH_HEAP_PROF === '1';
const target = (ext) => {
  const dir = process.env.BENCH_PROFILE_DIR;
  mkdirSync(dir, { recursive: true });
  return join(dir, `${process.env.BENCH_PROFILE_NAME}.${ext}`);
};

process.on('SIGWINCH', () => {
  if (!running) {
    running = true;
    if (heap)
      session.post('HeapProfiler.enable', () =>
        session.post('HeapProfiler.startSampling', {
          samplingInterval: 1024,
          includeObjectsCollectedByMajorGC: true,
          includeObjectsCollectedByMinorGC: true,
        }),
      );
    session.post('Profiler.enable', () =>
      session.post('Profiler.setSamplingInterval', { interval: 200 }, () => session.post('Profiler.start')),
    );
    return;
  }
  running = false;
  session.post('Profiler.stop', (error, result) => {
    if (error) return console.error('cpu profile:', error);
    writeFileSync(target('cpuprofile'), JSON.stringify(result.profile));
  });
  if (heap)
    session.post('HeapProfiler.stopSampling', (error, result) => {
      if (error) return console.error('heap profile:', error);
      writeFileSync(target('heapprofile'), JSON.stringify(result.profile));
    });
});
