// The bare tool the jobs bench compares the hub with (issue 41 item 1), run by run.mjs in the same
// run: `bwrap` with the very arguments host mode builds (bwrapArgs), or a container created and
// started through the same engine with the very create options the engine runner builds
// (containerOptions), at the same concurrency as the hub's run. Prints one JSON line:
// { runs, wallMs, perSecond, machineCpuMs, latency: [ms…] } where latency is launch → the command's first output
// (bwrap) or create → start answered (engine), and wallMs the first launch to the last exit (the
// container removed, as the hub's run ends).
// With 0 runs it only prepares the engine (image and network), before the hub's run.
// Run: SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register bench/jobs/bare.ts <host|docker|podman> <runs> <concurrency>
// Some of the imports below reach decorated classes (class-transformer needs the metadata API).
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bwrapArgs } from '../../libs/jobs/service/src/runner/host/bwrap-args';
import { findBwrap } from '../../libs/jobs/service/src/runner/host/host-mode';
import { connectEngine } from '../../libs/jobs/service/src/runner/engine/engine-connect';
import { containerOptions } from '../../libs/jobs/service/src/runner/engine/container-options';
import { ensureJobNetwork } from '../../libs/jobs/service/src/runner/engine/job-network';
import { ensureTestJobImage } from '../../libs/testing/src/job-engine';
import { machineCpuMs, systemDir, TMP_SIZE_MB, UID_BASE } from './sandbox';

const [mode = 'host', runsArg = '200', concurrencyArg = '20'] = process.argv.slice(2);
const RUNS = Number(runsArg);
const CONCURRENCY = Number(concurrencyArg);
/** The hub's defaults (jobs.config.ts): HUB_JOBS_CONTAINER_USER, HUB_JOBS_NETWORK; the sandbox's in sandbox.ts. */
const CONTAINER_USER = process.env.HUB_JOBS_CONTAINER_USER ?? '65534:65534';
const NETWORK = process.env.HUB_JOBS_NETWORK ?? 'hub-jobs';
const COMMAND = ['sh', '-c', 'echo hello'];

async function pool(
  work: (i: number) => Promise<number>,
): Promise<{ wallMs: number; latency: number[]; machineCpuMs: number }> {
  const latency: number[] = [];
  let next = 0;
  const cpu0 = machineCpuMs();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < RUNS) latency.push(await work(next++));
    }),
  );
  return { wallMs: performance.now() - t0, latency, machineCpuMs: machineCpuMs() - cpu0 };
}

/** One bwrap run as host mode starts it (a uid of its own when root, cwd a fresh empty directory): launch → first output. */
async function bwrapRun(bwrap: string, args: string[], i: number, parent: string): Promise<number> {
  const dir = mkdtempSync(join(parent, 'r-'));
  const root = process.getuid?.() === 0;
  const t0 = performance.now();
  const child = spawn(bwrap, args, {
    cwd: dir,
    env: { PATH: '/usr/bin:/bin', HOME: '/job', TMPDIR: '/tmp' },
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
    ...(root ? { uid: UID_BASE + i, gid: UID_BASE + i } : {}),
  });
  let first = NaN;
  child.stdout.once('data', () => (first = performance.now() - t0));
  child.stdout.resume();
  const code = await new Promise<number | null>((r) => child.on('close', r));
  rmSync(dir, { recursive: true, force: true });
  if (code !== 0) throw new Error(`bwrap exited with ${code}`);
  return first;
}

async function host(): Promise<{ wallMs: number; latency: number[]; machineCpuMs: number }> {
  const bwrap = findBwrap();
  if (!bwrap) throw new Error('no bwrap');
  const args = bwrapArgs({
    diskBytes: TMP_SIZE_MB * 1024 ** 2,
    argv: ['/bin/sh', '-c', 'exec "$@"', 'job', ...COMMAND],
    systemDir,
  });
  const parent = mkdtempSync(join(tmpdir(), 'bench-bare-'));
  // Each run's uid enters its own directory through this one, as through the hub's work directory.
  chmodSync(parent, 0o711);
  try {
    return await pool((i) => bwrapRun(bwrap, args, i, parent));
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
}

async function engine(kind: 'docker' | 'podman'): Promise<{ wallMs: number; latency: number[]; machineCpuMs: number }> {
  const found = await connectEngine(kind, process.env.HUB_JOBS_ENGINE_SOCKET);
  if (!found) throw new Error(`no ${kind} engine`);
  // The local alpine:3 stand-in the jobs run (built from busybox when missing, as the tests do).
  await ensureTestJobImage(found.socket);
  // The hub's jobs network (made at its boot, the same call): what its containers join.
  const network = await ensureJobNetwork(found, NETWORK, []);
  const tag = Math.random().toString(16).slice(2, 8);
  return pool(async (i) => {
    const options = containerOptions(
      {
        jobId: `bare${tag}${i}`,
        attempt: 1,
        command: COMMAND,
        dockerImage: 'alpine:3',
        flavor: 'cpu-basic',
        env: {},
        secrets: {},
        onLine: () => undefined,
      },
      { engine: found.kind, network: network.name, user: CONTAINER_USER, tmpSizeMb: TMP_SIZE_MB },
    );
    const t0 = performance.now();
    const container = await found.api.createContainer(options);
    await container.start();
    const started = performance.now() - t0;
    await container.wait({ condition: 'not-running' });
    await container.remove({ force: true });
    return started;
  });
}

async function main(): Promise<void> {
  const result = mode === 'host' ? await host() : await engine(mode as 'docker' | 'podman');
  process.stdout.write(
    `${JSON.stringify({ mode, runs: RUNS, concurrency: CONCURRENCY, wallMs: result.wallMs, perSecond: RUNS / (result.wallMs / 1000), machineCpuMs: result.machineCpuMs, latency: result.latency })}\n`,
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
