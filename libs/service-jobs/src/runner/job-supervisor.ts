import { randomBytes } from 'node:crypto';
import { type SecretBox } from '@hub/config';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { type JobsConfig } from '../jobs.config';
import { JOBS_CONFIG, JOBS_SECRETS } from '../jobs.tokens';
import { JobLogs } from '../logs/job-logs';
import { type LogSink } from '../logs/log-sink';
import { type JobEntity } from '../jobs/job.entity';
import { ACTIVE_STAGES, JobStore } from '../jobs/job-store';
import { type JobFlavor, type JobMetricsSample } from '@hub/contracts';
import { allowanceOf } from '../jobs/job-metrics';
import { Admission } from './admission';
import { JOB_RUNNER, type JobRun, type JobRunner, type RunExit } from './job-runner';
import { JobSweeper } from './job-sweeper';
import { cpuPercent, netRates, type ProcSample, readProc } from './proc-sample';
import { identityOf } from './process-identity';

/** How long a heartbeat waits for a runner's sample (an engine's stats answer in ~25 ms). */
const SAMPLE_WAIT_MS = 1000;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms).unref());

interface Running {
  job: JobEntity;
  run?: JobRun;
  /** Why we stopped it ourselves (cancel, timeout, shutdown), so its exit is not read as a failure. */
  stopping?: 'cancel' | 'timeout' | 'shutdown';
  lastSample?: ProcSample;
  /** Its log: stored, and pushed to the open log streams (which it tells on each heartbeat that the job goes on). */
  sink: LogSink;
  /** A runner's sample still being read (a slow engine): the next heartbeat takes it, none is started meanwhile. */
  pendingSample?: Promise<ProcSample | null>;
}

/**
 * Drives the jobs this replica started: SCHEDULING → RUNNING → COMPLETED | ERROR | CANCELED, with
 * retries (`attempts`), timeouts and cancels from any replica. A heartbeat marks its jobs alive;
 * any replica settles jobs whose replica went silent, so none stays RUNNING forever.
 */
@Injectable()
export class JobSupervisor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('JobSupervisor');
  private readonly replica = `${process.pid}-${randomBytes(4).toString('hex')}`;
  private readonly running = new Map<string, Running>();
  private timer: NodeJS.Timeout | undefined;
  /** A heartbeat still running (a slow engine's sample, a busy database): the next one waits its turn. */
  private ticking = false;
  /** This service process, recorded with each run: a restart on this machine sees it is gone and kills the orphans. */
  private readonly self = identityOf(process.pid) ?? undefined;
  /** HUB_JOBS_MAX_RUNNING and the per-namespace cap: the rest wait SCHEDULING, in order. */
  private readonly admission: Admission;

  constructor(
    private readonly store: JobStore,
    private readonly logs: JobLogs,
    @Inject(JOB_RUNNER) private readonly runner: JobRunner,
    @Inject(JOBS_CONFIG) private readonly config: JobsConfig,
    @Inject(JOBS_SECRETS) private readonly secrets: SecretBox,
    private readonly sweeper: JobSweeper,
  ) {
    this.admission = new Admission(config.HUB_JOBS_MAX_RUNNING, config.HUB_JOBS_MAX_RUNNING_PER_NAMESPACE);
  }

  /** Why this replica's runner cannot run a flavor at all (the create answers 400 with it), or null. */
  refusal(flavor: JobFlavor): string | null {
    return this.runner.refusal?.(flavor) ?? null;
  }

  onApplicationBootstrap(): void {
    this.runner.open?.();
    // One heartbeat at a time: two at once took the same sample (the second read 0 % CPU, as two
    // samples at the same instant) and their writes raced, the later, zero one stored.
    this.timer = setInterval(() => {
      if (this.ticking) return;
      this.ticking = true;
      void this.tick()
        .catch((e: unknown) => this.logger.warn(`tick failed: ${String(e)}`))
        .finally(() => (this.ticking = false));
    }, this.config.HUB_JOBS_HEARTBEAT_MS);
    this.timer.unref();
    // A restart kills what the previous process of this machine left running, without waiting for staleness.
    void this.sweeper
      .sweep(this.replica, new Set(this.running.keys()))
      .catch((e: unknown) => this.logger.warn(`sweep failed: ${String(e)}`));
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all(
      [...this.running.values()].map(async (r) => {
        r.stopping = 'shutdown';
        r.run?.kill();
        await r.run?.done.catch(() => undefined);
      }),
    );
    await this.runner.close?.();
  }

  /** Starts a job created here (after its transaction committed), once the caps let it (it waits SCHEDULING). */
  launch(job: JobEntity): void {
    const r: Running = { job, sink: this.logs.sink(job.id) };
    this.running.set(job.id, r);
    void this.admitted(r)
      .catch((e: unknown) => this.logger.error(`job ${job.id}: ${String(e)}`))
      .finally(() => {
        this.running.delete(job.id);
        // Its last line stored, then the open streams are told it ended.
        void r.sink.end();
      });
  }

  private async admitted(r: Running): Promise<void> {
    const ns = r.job.namespace;
    const admitted = await this.admission.acquire(r.job.id, ns, (message) => this.tell(r, message));
    if (!admitted) return;
    try {
      await this.drive(r);
    } finally {
      this.admission.release(ns);
    }
  }

  /** A SCHEDULING job's status message (waiting for a slot, pulling its image): in its events stream. */
  private tell(r: Running, message: string): void {
    void this.store
      .advance(r.job, ['SCHEDULING'], { message })
      .then((j) => {
        if (j && j.stage === 'SCHEDULING' && !r.run) r.job = j;
      })
      .catch((e: unknown) => this.logger.warn(`job ${r.job.id}: ${String(e)}`));
  }

  /** Stops a job this replica runs (the cancel itself is already stored). */
  stop(jobId: string): void {
    const r = this.running.get(jobId);
    if (!r) return;
    r.stopping ??= 'cancel';
    this.admission.withdraw(jobId);
    r.run?.kill();
  }

  private async drive(r: Running): Promise<void> {
    const sink = r.sink;
    let failures = r.job.failureCount;
    for (let attempt = 1; ; attempt++) {
      if (r.stopping) break;
      const exit = await this.attempt(r, attempt, sink);
      await sink.flush();
      // Canceled (by another replica) while its first run was being started: that run was killed.
      if (!exit) break;
      const job = r.job;
      if (r.stopping === 'cancel') break;
      if (r.stopping === 'shutdown') {
        await this.finish(job, 'ERROR', 'the jobs service stopped while this job ran', failures + 1);
        break;
      }
      if (r.stopping === 'timeout') {
        await this.finish(job, 'ERROR', `Job timed out after ${job.spec.timeoutSeconds ?? 0} seconds`, failures + 1);
        break;
      }
      if (exit.timedOut) {
        await this.finish(
          job,
          'ERROR',
          `Job timed out after ${job.spec.timeoutSeconds ?? 0} seconds`,
          failures + (exit.failures ?? 1),
        );
        break;
      }
      if (exit.code === 0) {
        await this.finish(job, 'COMPLETED', null, failures + (exit.failures ?? 0));
        break;
      }
      failures += exit.failures ?? 1;
      const why = exit.error
        ? `could not start: ${exit.error}`
        : exit.reason
          ? exit.reason
          : exit.signal
            ? `killed by ${exit.signal}`
            : `exited with code ${exit.code ?? '?'}`;
      if (attempt >= job.attempts || this.runner.retriesItself) {
        await this.finish(job, 'ERROR', `Job failed: ${why}`, failures);
        break;
      }
      // Still RUNNING: the next attempt starts at once; the failure count tells the clients.
      const next = await this.store.advance(job, ['RUNNING'], {
        failureCount: failures,
        message: `attempt ${attempt} ${why}; retrying`,
      });
      if (!next) break;
    }
  }

  /**
   * One run of the job, to its end; null when the job was no longer SCHEDULING once its first run
   * was under way (then that run is killed). The first run's SCHEDULING → RUNNING transition
   * stores its handle in the same UPDATE: RUNNING means a process runs, and no extra round trip.
   * A crash before that UPDATE leaves no orphan: the spawn helper kills its runs when the service
   * goes away.
   */
  private async attempt(r: Running, attempt: number, sink: LogSink): Promise<RunExit | null> {
    const job = r.job;
    const spec = job.spec;
    const run = await this.runner.start({
      jobId: job.id,
      attempt,
      command: spec.command,
      arguments: spec.arguments,
      dockerImage: spec.dockerImage,
      spaceId: spec.spaceId,
      flavor: spec.flavor,
      timeoutSeconds: spec.timeoutSeconds,
      attempts: job.attempts,
      expose: spec.expose,
      env: { ...(spec.environment ?? {}), ...job.extraEnv },
      secrets: this.secrets.openMap(job.secretValues),
      onLine: (line) => sink.write(line),
      log: sink.gateOptions,
      readBytes: sink.readBytes,
      onDropped: (lines, bytes) => sink.dropped(lines, bytes),
      onProgress: (message) => {
        if (attempt === 1) this.tell(r, message);
      },
      // A runner retrying by itself (Kubernetes backoffLimit) reports each failure while the job stays RUNNING.
      onAttemptFailed: (failureCount) =>
        void this.store.transition(job.id, ['RUNNING'], {
          failureCount,
          message: `attempt ${failureCount} failed; retrying`,
        }),
    });
    r.run = run;
    // Canceled or stopped while the run was being started.
    if (r.stopping) run.kill();
    const handle = run.handle ? { ...run.handle, ...(this.self ? { supervisor: this.self } : {}) } : null;
    try {
      if (attempt === 1) {
        const now = new Date();
        const started = await this.store.advance(job, ['SCHEDULING'], {
          stage: 'RUNNING',
          startedAt: now,
          runner: this.replica,
          heartbeatAt: now,
          message: null,
          runHandle: handle,
        });
        if (!started) {
          run.kill();
          await run.done;
          return null;
        }
        r.job = started;
      } else if (handle) {
        await this.store.setHandle(job.id, handle);
      }
    } catch (e) {
      // Not tracked in the database: not left running either.
      run.kill();
      await run.done;
      throw e;
    }
    const startedAt = r.job.startedAt?.getTime() ?? Date.now();
    const timeout = spec.timeoutSeconds
      ? setTimeout(
          () => {
            r.stopping ??= 'timeout';
            run.kill();
          },
          spec.timeoutSeconds * 1000 - (Date.now() - startedAt),
        )
      : undefined;
    try {
      return await run.done;
    } finally {
      clearTimeout(timeout);
    }
  }

  private finish(
    job: JobEntity,
    stage: 'COMPLETED' | 'ERROR',
    message: string | null,
    failureCount: number,
  ): Promise<JobEntity | null> {
    return this.store.advance(job, ACTIVE_STAGES, {
      stage,
      message,
      failureCount,
      finishedAt: new Date(),
      runner: null,
    });
  }

  /**
   * The run's resource sample since the last one (decision 0630: the public hub's fields, the
   * totals being the run's limit or its flavor's); null without a process or figures of its own here.
   */
  private async sample(r: Running): Promise<JobMetricsSample | null> {
    const pid = r.run?.pid;
    // Bounded: a heartbeat that waits on a slow engine would read as a dead replica.
    // A sample slower than the wait is kept for the next heartbeat, not dropped: under load an
    // engine's stats can take longer than a heartbeat, and dropping each one left no sample at all.
    let now: ProcSample | null;
    if (r.run?.sample) {
      const pending = (r.pendingSample ??= r.run.sample().catch(() => null));
      const got = await Promise.race([pending, sleep(SAMPLE_WAIT_MS).then(() => 'waiting' as const)]);
      if (got === 'waiting') return null;
      r.pendingSample = undefined;
      now = got;
    } else now = pid ? readProc(pid) : null;
    if (!now) return null;
    const allowance = allowanceOf(r.job.spec.flavor);
    const net = netRates(r.lastSample, now);
    const metrics: JobMetricsSample = {
      cpu_usage_pct: cpuPercent(r.lastSample, now),
      cpu_millicores: allowance.cpuMillicores,
      memory_used_bytes: now.rssBytes,
      memory_total_bytes: now.memoryLimitBytes ?? allowance.memoryBytes,
      rx_bps: net.rx,
      tx_bps: net.tx,
      gpus: [],
      timestamp: new Date(now.at).toISOString(),
    };
    r.lastSample = now;
    return metrics;
  }

  /** Heartbeat and resource samples for ours, cancels from other replicas, and jobs whose replica went away. */
  private async tick(): Promise<void> {
    for (const r of this.running.values()) r.sink.beat();
    const beats = await Promise.all(
      [...this.running.values()].map(async (r) => ({ id: r.job.id, metrics: await this.sample(r) })),
    );
    for (const id of await this.store.heartbeat(beats)) this.stop(id);
    await this.sweeper.sweep(this.replica, new Set(this.running.keys()));
  }
}
