// Preloaded into every server (node --require) when BENCH_CPU_PROF=1: the first SIGWINCH (a
// signal Nest's shutdown hooks leave alone) starts the V8 CPU profiler, the next writes $BENCH_PROFILE_DIR/$BENCH_PROFILE_NAME.cpuprofile, so the
// profile covers the measured window only. No change to the apps themselves.
const inspector = require('node:inspector');
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const session = new inspector.Session();
session.connect();
let running = false;

process.on('SIGWINCH', () => {
  if (!running) {
    running = true;
    session.post('Profiler.enable', () =>
      session.post('Profiler.setSamplingInterval', { interval: 200 }, () => session.post('Profiler.start')),
    );
    return;
  }
  running = false;
  session.post('Profiler.stop', (error, result) => {
    if (error) return console.error('cpu profile:', error);
    const dir = process.env.BENCH_PROFILE_DIR;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${process.env.BENCH_PROFILE_NAME}.cpuprofile`), JSON.stringify(result.profile));
  });
});
