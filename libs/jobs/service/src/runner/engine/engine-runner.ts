import { Logger } from '@nestjs/common';
import { type Container } from 'dockerode';
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { type JobFlavor } from '@hub/contracts';
import { engineImageRef, hardwareOf, parseImageReference } from '@hub/jobs-contract';
import { type RegistryPolicy } from '../../jobs/registry-policy';
import { type JobRun, type JobRunner, type RunExit, type RunHandle, type RunRequest } from '../job-runner';
import { containerName, containerOptions, type ContainerSettings, memoryBytesOf } from './container-options';
import { type Engine } from './engine-connect';
import { type EngineStats, fromEngineStats } from './engine-stats';
import { ensureImage } from './image-pull';
import { LineSplitter } from './line-splitter';
import { readCap } from '../../logs/read-cap';

export interface EngineRunnerOptions extends ContainerSettings {
  maxLineLength: number;
  /** Decision 0623, asked again here: a job stored before the rule (or a changed list) is refused too. */
  registries: RegistryPolicy;
}

const mib = (bytes: number): string => `${Math.round(bytes / 1024 ** 2)} MiB`;
const gb = (bytes: number): string => `${(bytes / 1024 ** 3).toFixed(1)} GB`;
/** The engine's own text of an error: for the service's log only (it may echo what a registry answered). */
const engineText = (e: unknown): string => {
  const json = (e as { json?: { message?: string } }).json;
  return (json?.message ?? (e instanceof Error ? e.message : String(e))).replace(/^\(HTTP code \d+\) [a-z ]+ - /, '');
};

/** A run that failed before its container ran: ends at once with `error`. */
const failed = (error: string): JobRun => ({
  done: Promise.resolve({ code: null, signal: null, error }),
  kill: () => undefined,
});

/**
 * Runs each job in a container of its `dockerImage` through Docker's (or Podman's compatible) API,
 * with the service's rights over the engine's socket: pulls the image (progress as the job's status
 * message), creates the container isolated (container-options.ts), relays its output line by line,
 * and removes it when the run ends or is stopped (every process in it dies with it).
 */
export class EngineRunner implements JobRunner {
  private readonly logger = new Logger('EngineRunner');

  constructor(
    private readonly engine: Engine,
    private readonly options: EngineRunnerOptions,
  ) {}

  /** Why this engine cannot run a flavor (more CPUs, memory or accelerators than its host has), or null. */
  refusal(flavor: JobFlavor): string | null {
    const hw = hardwareOf(flavor);
    const memory = memoryBytesOf({ flavor }, this.options);
    if (hw.gpu)
      return `flavor ${flavor} needs ${hw.gpu.model} accelerators; this runner's ${this.engine.kind} engine has none`;
    if (hw.vcpu > this.engine.cpus)
      return `flavor ${flavor} needs ${hw.vcpu} vCPUs; this runner's ${this.engine.kind} engine has ${this.engine.cpus}`;
    if (this.engine.memoryBytes && memory > this.engine.memoryBytes)
      return `flavor ${flavor} needs ${gb(memory)} of memory; this runner's ${this.engine.kind} engine has ${gb(this.engine.memoryBytes)}`;
    return null;
  }

  /**
   * Never throws and its `done` never rejects: whatever an engine call answers ends this job (with a
   * short message of ours; the engine's text goes to the log), never the process.
   */
  async start(req: RunRequest): Promise<JobRun> {
    const refusal = this.refusal(req.flavor);
    if (refusal) return failed(refusal);
    if (!req.dockerImage)
      return failed('spaceId jobs need a Space image, which this runner does not build: use dockerImage');
    const parsed = parseImageReference(req.dockerImage);
    if ('error' in parsed) return failed(`dockerImage ${parsed.error}`);
    const refused = await this.options.registries.refusal(req.dockerImage);
    if (refused) return failed(`dockerImage is refused: ${refused}`);
    const image = engineImageRef(parsed);
    const options = containerOptions({ ...req, dockerImage: image }, this.options);
    // Created first: with the image there (the usual case) no lookup goes before the create. Without
    // it the engine answers 404 (neither Docker nor Podman pulls on create): the image is pulled
    // (ensureImage asks first: a 404 may name something else) and the container created again.
    let container = await this.create(options, req.jobId);
    if (container === 'missing') {
      try {
        await ensureImage(this.engine, image, (m) => req.onProgress?.(m));
      } catch (e) {
        this.logger.warn(`job ${req.jobId}: pulling ${image}: ${engineText(e)}`);
        return failed(`could not pull image ${image} (no such image, or its registry refused or did not answer)`);
      }
      container = await this.create(options, req.jobId);
    }
    if (container === null || container === 'missing')
      return failed(`the ${this.engine.kind} engine could not create the job's container`);
    const name = containerName(req.jobId, req.attempt);
    try {
      return await this.run(container, name, req);
    } catch (e) {
      this.logger.warn(`job ${req.jobId}: starting its container: ${engineText(e)}`);
      await container.remove({ force: true }).catch(() => undefined);
      return failed(`the ${this.engine.kind} engine could not start the job's container`);
    }
  }

  /** The job's container created; 'missing' when the engine answered 404 (no such image, most likely); null on any other error. */
  private async create(
    options: ReturnType<typeof containerOptions>,
    jobId: string,
  ): Promise<Container | 'missing' | null> {
    try {
      return await this.engine.api.createContainer(options);
    } catch (e) {
      if ((e as { statusCode?: number }).statusCode === 404) return 'missing';
      this.logger.warn(`job ${jobId}: creating its container: ${engineText(e)}`);
      return null;
    }
  }

  private async run(container: Container, name: string, req: RunRequest): Promise<JobRun> {
    const stream = await container.attach({ stream: true, stdout: true, stderr: true, logs: false });
    const out = new LineSplitter(this.options.maxLineLength, req.onLine);
    const err = new LineSplitter(this.options.maxLineLength, req.onLine);
    const stdout = new PassThrough().on('data', (c: Buffer) => out.write(c));
    const stderr = new PassThrough().on('data', (c: Buffer) => err.write(c));
    // Decision 0631: read at most HUB_JOBS_LOG_READ_BYTES a second (a flood waits on its own writes).
    const capped = req.readBytes ? stream.pipe(readCap(req.readBytes)) : stream;
    this.engine.api.modem.demuxStream(capped, stdout, stderr);
    const streamEnded = new Promise<void>((resolve) => {
      stream.on('error', () => resolve());
      capped
        .on('end', resolve)
        .on('close', resolve)
        .on('error', () => resolve());
    });
    await container.start();
    // Asked once started: 'not-running' answers at once for a container that already exited. (A
    // 'next-exit' wait sent before the start could reach the engine after a quick command had
    // exited, and then never answered: the job stayed RUNNING.)
    // Settled here, never rejected: an engine that fails the wait (or goes away) ends the job, not the process.
    const exited = (container.wait({ condition: 'not-running' }) as Promise<{ StatusCode: number }>).catch(
      (e: unknown) => {
        this.logger.warn(`job ${req.jobId}: waiting for its container: ${engineText(e)}`);
        return null;
      },
    );
    // Its address on the jobs network (in the handle, for exposed ports) and its init's pid (a kill
    // from here): asked once started. Awaited before the run is handed back (and RUNNING stored) only
    // for a job that exposes ports; any other job's launch does not wait for it.
    let initPid = 0;
    let containerId = '';
    const inspected = container.inspect().then((info) => {
      initPid = info.State.Pid;
      containerId = info.Id;
      return info;
    });
    // Failing, it costs a job that exposes no ports only the kill from here (the engine's kill remains).
    inspected.catch(() => undefined);
    const info = req.expose?.ports.length ? await inspected : undefined;
    const address = info ? Object.values(info.NetworkSettings.Networks ?? {})[0]?.IPAddress || undefined : undefined;
    let stopped = false;
    let ended = false;
    const done = (async (): Promise<RunExit> => {
      const waited = await exited;
      ended = true;
      if (!waited) {
        out.end();
        err.end();
        await container.remove({ force: true }).catch(() => undefined);
        return { code: null, signal: null, error: `the ${this.engine.kind} engine lost the job's container` };
      }
      const { StatusCode } = waited;
      // The output still in flight arrives before the stream closes (bounded wait; a stopped run's is cut short).
      await Promise.race([streamEnded, new Promise((r) => setTimeout(r, stopped ? 100 : 2000).unref())]);
      out.end();
      err.end();
      // Stopped (cancel, timeout): kill() removes it; the run is over now, not after the removal.
      if (stopped) return { code: null, signal: 'SIGKILL' };
      const state = (await container.inspect().catch(() => null))?.State;
      await container.remove({ force: true }).catch(() => undefined);
      const limit = mib(memoryBytesOf(req, this.options));
      if (state?.OOMKilled && StatusCode !== 0)
        return { code: StatusCode, signal: null, reason: `ran out of memory: killed at its limit of ${limit}` };
      // Podman (cgroup v1) does not report OOMKilled: a SIGKILL nobody here sent is most likely the OOM killer.
      if (StatusCode === 137 && this.engine.kind === 'podman')
        return {
          code: null,
          signal: 'SIGKILL',
          reason: `killed by SIGKILL, probably out of memory (its limit is ${limit})`,
        };
      return StatusCode >= 128 && StatusCode < 160
        ? { code: null, signal: signalName(StatusCode - 128) }
        : { code: StatusCode, signal: null };
    })();
    const handle: RunHandle = {
      kind: 'container',
      engine: this.engine.kind,
      container: name,
      ...(address ? { address } : {}),
    };
    return {
      done,
      pid: info?.State.Pid || undefined,
      handle,
      // The whole container (every process in it, its memory limit, its interfaces) from the
      // engine's stats: one-shot answers at once (~25 ms), and it works for an engine elsewhere too.
      sample: async () => {
        if (ended) return null;
        const stats = await container.stats({ stream: false, 'one-shot': true }).catch(() => null);
        return ended || !stats ? null : fromEngineStats(stats as EngineStats, Date.now());
      },
      kill: () => {
        if (stopped) return;
        stopped = true;
        // SIGKILL to the container's init: the kernel ends every process of its pid namespace. At
        // once from here when the engine runs on this machine and we may (root), then through the
        // engine in any case (its state, and the removal; the only way before its pid is known).
        if (!ended && initPid > 0 && ownsPid(initPid, containerId)) {
          try {
            process.kill(initPid, 'SIGKILL');
          } catch {
            // not ours to signal (rootless, or another machine's engine): the API does it
          }
        }
        void container
          .kill({ signal: 'SIGKILL' })
          .catch(() => undefined)
          .then(() => container.remove({ force: true }).catch(() => undefined));
      },
    };
  }

  /** After a crash: removes the container a lost run left (killing whatever still ran in it). */
  async reap(handle: RunHandle): Promise<void> {
    const name = handle.kind === 'container' || handle.kind === 'process' ? handle.container : undefined;
    if (!name) return;
    await this.engine.api
      .getContainer(name)
      .remove({ force: true })
      .catch((e: unknown) => {
        if ((e as { statusCode?: number }).statusCode !== 404) throw e;
      });
  }
}

/** Whether `pid` here is that container's process (its cgroup names the container): false in another pid namespace. */
function ownsPid(pid: number, containerId: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cgroup`, 'utf8').includes(containerId);
  } catch {
    return false;
  }
}

const SIGNALS: Record<number, NodeJS.Signals> = {
  1: 'SIGHUP',
  2: 'SIGINT',
  6: 'SIGABRT',
  9: 'SIGKILL',
  15: 'SIGTERM',
  11: 'SIGSEGV',
};
const signalName = (n: number): NodeJS.Signals => SIGNALS[n] ?? 'SIGKILL';
