// Child processes of the bench: started with their output in a log file, waited on until
// ready, measured (CPU time from /proc) and always stopped, whatever happens to the bench.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

const children = new Set();
let profileDir = null;

/** From now on servers start with cpu-profile.cjs preloaded; profiles go to dir. */
export function enableProfiling(dir) {
  profileDir = dir;
}
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** Starts `node <args>`; stdout and stderr go to <logDir>/<name>.log. */
export function startNode(name, args, { env = {}, logDir, cwd }) {
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, `${name}.log`);
  const log = createWriteStream(logFile);
  const fullEnv = { ...process.env, ...env };
  for (const [k, v] of Object.entries(fullEnv)) if (v === undefined) delete fullEnv[k]; // undefined: unset
  const preload = profileDir ? ['--require', fileURLToPath(new URL('./cpu-profile.cjs', import.meta.url))] : [];
  // BENCH_TRACE_GC=1: every server logs its garbage collections (with their pauses) to its log file.
  if (process.env.BENCH_TRACE_GC === '1') preload.push('--trace-gc');
  if (profileDir) Object.assign(fullEnv, { BENCH_PROFILE_DIR: profileDir, BENCH_PROFILE_NAME: name });
  const child = spawn(process.execPath, [...preload, ...args], {
    cwd,
    env: fullEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const proc = { name, child, logFile, exited, output: () => output, exitedEarly: false, exit: null };
  exited.then(({ code, signal }) => {
    proc.exitedEarly = true;
    proc.exit = signal ? `signal ${signal}` : `code ${code}`;
    log.end(`[bench] ${name} (pid ${child.pid}) exited with ${proc.exit}\n`);
    children.delete(proc);
  });
  children.add(proc);
  return proc;
}

/** Starts or stops (and writes) the CPU profile of servers started with profiling on. */
export async function toggleProfiles(procs) {
  if (!profileDir) return;
  for (const p of procs) p.child.kill('SIGWINCH');
  await sleep(1000); // the profile is written asynchronously
}

/** Runs `node <args>` to completion (migrations); throws with its output if it fails. */
export async function runNode(name, args, options) {
  const proc = startNode(name, args, options);
  const { code, signal } = await proc.exited;
  if (code !== 0) throw new Error(`${name} exited with ${code ?? signal}:\n${proc.output()}`);
}

/** Throws when one of the processes has exited (a server dying under load must not pass for slowness). */
export function assertRunning(procs) {
  const gone = procs.filter((p) => p.exitedEarly);
  if (gone.length > 0) {
    throw new Error(
      gone.map((p) => `${p.name} exited with ${p.exit}; log ${p.logFile}:\n${p.output().slice(-3000)}`).join('\n'),
    );
  }
}

/** Polls url until it answers 200, or fails when the process dies or time runs out. */
export async function waitReady(proc, url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.exitedEarly)
      throw new Error(`${proc.name} exited before it was ready; log ${proc.logFile}:\n${proc.output()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`${proc.name} not ready at ${url} after ${timeoutMs} ms; log ${proc.logFile}:\n${proc.output()}`);
}

/** Waits for a line of output (the all-in-one hub prints "Admin token" when it is up). */
export async function waitOutput(proc, text, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.output().includes(text)) return;
    if (proc.exitedEarly)
      throw new Error(`${proc.name} exited before printing "${text}"; log ${proc.logFile}:\n${proc.output()}`);
    await sleep(100);
  }
  throw new Error(`${proc.name} did not print "${text}" in ${timeoutMs} ms; log ${proc.logFile}:\n${proc.output()}`);
}

/** User + system CPU time in ms of each process now running, by pid, with its command name. */
function allProcesses() {
  const out = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(entry), { comm, ms: ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function machineMs() {
  const [cpu] = readFileSync('/proc/stat', 'utf8').split('\n');
  const v = cpu.split(/\s+/).slice(1, 9).map(Number); // user nice system idle iowait irq softirq steal
  return ((v.reduce((a, b) => a + b, 0) - v[3] - v[4]) * 1000) / TICKS_PER_SECOND;
}

/**
 * CPU time spent between start() and the returned function's call, split into the servers
 * under test, this process (the load generator), Postgres, NATS and everything else on the
 * machine (other sessions' work: the figures are only clean when that stays near zero).
 */
export function cpuAccount(procs) {
  const serverPids = new Map(procs.map((p) => [p.child.pid, p.name]));
  const before = allProcesses();
  const machineBefore = machineMs();
  const started = performance.now();
  return () => {
    const after = allProcesses();
    const wallMs = performance.now() - started;
    const used = { server: 0, loadgen: 0, postgres: 0, nats: 0 };
    const byServer = {};
    for (const [pid, p] of after) {
      const delta = p.ms - (before.get(pid)?.comm === p.comm ? before.get(pid).ms : 0);
      if (serverPids.has(pid)) {
        used.server += delta;
        byServer[serverPids.get(pid)] = delta;
      } else if (pid === process.pid) used.loadgen += delta;
      else if (p.comm === 'postgres') used.postgres += delta;
      else if (p.comm === 'nats-server') used.nats += delta;
    }
    const busy = machineMs() - machineBefore;
    used.other = Math.max(0, busy - used.server - used.loadgen - used.postgres - used.nats);
    const cores = Object.fromEntries(Object.entries(used).map(([k, ms]) => [k, ms / wallMs]));
    return { ms: used, byServer, cores, busyCores: busy / wallMs };
  };
}

/** SIGTERM, then SIGKILL after a grace period. */
export async function stop(proc, graceMs = 5000) {
  if (!proc || proc.exitedEarly) return;
  proc.child.kill('SIGTERM');
  const done = await Promise.race([proc.exited.then(() => true), sleep(graceMs).then(() => false)]);
  if (!done) {
    proc.child.kill('SIGKILL');
    await proc.exited;
  }
}

export async function stopAll() {
  await Promise.all([...children].map((p) => stop(p)));
}

/** Last resort when the bench itself is dying: no awaiting, just kill. */
export function killAllNow() {
  for (const p of children) p.child.kill('SIGKILL');
}

/**
 * Waits (up to maxSeconds) until the rest of the machine is quiet: less than `threshold` of a
 * core used outside the bench, Postgres and NATS over one second. Returns that last sample.
 */
export async function waitQuiet(maxSeconds, threshold = 0.15) {
  const deadline = Date.now() + maxSeconds * 1000;
  for (;;) {
    const done = cpuAccount([]);
    await sleep(1000);
    const { cores } = done();
    if (cores.other < threshold || Date.now() >= deadline) return cores.other;
  }
}

/** A port nothing listens on right now (the OS picks it). */
export async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}
