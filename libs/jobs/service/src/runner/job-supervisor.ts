import { randomBytes } from 'node:crypto';
import { type SecretBox } from '@hub/config';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { Outbox } from '@hub/messaging';
import { type JobsConfig } from '../jobs.config';
import { JOBS_CONFIG, JOBS_DS, JOBS_SECRETS } from '../jobs.di';
import { JobLogs } from '../logs/job-logs';
import { type LogSink } from '../logs/log-sink';
import { type JobEntity } from '../jobs/job.entity';
import { JobRuns } from '../jobs/job-runs';
import { recordStatus } from '../jobs/job-events';
import { JobWriteBatches } from '../jobs/job-write-batches';
import { ACTIVE_STAGES, JobsStore } from '../jobs/jobs.store';
import { type JobFlavor } from '@hub/contracts';
import { type JobMetricsSample } from '@hub/jobs-contract';
import { allowanceOf } from '../jobs/job-metrics';
import { Admission } from './admission';
import { JOB_RUNNER, type JobRun, type JobRunner, type RunExit } from './job-runner';
import { JobSweeper } from './job-sweeper';
import { type Stopping, verdict } from './run-verdict';
import { cpuPercent, netRates, type ProcSample, readProc } from './proc-sample';
import { identityOf } from './process-identity';

/** How long a heartbeat waits for a runner's sample (an engine's stats answer in ~25 ms). */
const SAMPLE_WAIT_MS = 1000;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms).unref());

interface Running {
  job: JobEntity;
  run?: JobRun;
  /** Why we stopped it ourselves (cancel, timeout, shutdown), so its exit is not read as a failure. */
  stopping?: Stopping;
  lastSample?: ProcSample;
  /** Its log: stored, and pushed to the open log streams (which it tells on each heartbeat that the job goes on). */
  sink: LogSink;
  /** A runner's sample still being read (a slow engine): the next heartbeat takes it, none is started meanwhile. */
  pendingSample?: Promise<ProcSample | null>;
}

/**
 * Drives the jobs this replica started (JobRuns, the port of jobs/): SCHEDULING → RUNNING →
 * COMPLETED | ERROR | CANCELED, with retries (`attempts`), timeouts and cancels from any replica;
 * `lifecycle` reads it top to bottom, `verdict` (run-verdict.ts) judges each run's end. A heartbeat marks its jobs alive;
 * any replica settles jobs whose replica went silent, so none stays RUNNING forever.
 */
@Injectable()
export class JobSupervisor extends JobRuns implements OnApplicationBootstrap, OnApplicationShutdown {
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
    @InjectDataSource(JOBS_DS) private readonly ds: DataSource,
    @Inject(Outbox) private readonly outbox: Outbox,
    private readonly writes: JobWriteBatches,
    private readonly logs: JobLogs,
    @Inject(JOB_RUNNER) private readonly runner: JobRunner,
    @Inject(JOBS_CONFIG) private readonly config: JobsConfig,
    @Inject(JOBS_SECRETS) private readonly secrets: SecretBox,
    private readonly sweeper: JobSweeper,
  ) {
    super();
    this.admission = new Admission(config.HUB_JOBS_MAX_RUNNING, config.HUB_JOBS_MAX_RUNNING_PER_NAMESPACE);
  }

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

  /** A job stored here: it runs once the caps let it (it waits SCHEDULING meanwhile). */
  created(job: JobEntity): void {
    const r: Running = { job, sink: this.logs.sink(job.id, true) };
    this.running.set(job.id, r);
    void this.lifecycle(r).catch((e: unknown) => this.logger.error(`job ${job.id}: ${String(e)}`));
  }

  /** A cancel was stored: stops the job's run if this replica has it. */
  canceled(jobId: string): void {
    const r = this.running.get(jobId);
    if (!r) return;
    r.stopping ??= 'cancel';
    this.admission.withdraw(jobId);
    r.run?.kill();
  }

  /**
   * One job on this replica, top to bottom (its stage changes are all here or in `attempt`):
   * 1. SCHEDULING until the caps give it a slot (its status message says what it waits for);
   * 2. a run started: the first one's start stores SCHEDULING → RUNNING (`attempt`);
   * 3. the run's end judged (`verdict`): COMPLETED or ERROR stored, or another attempt while RUNNING;
   * 4. its log stored, and the open log streams told it ended.
   * A cancel (stored by any replica) stops the run; the cancel's CANCELED stays.
   */
  private async lifecycle(r: Running): Promise<void> {
    try {
      const ns = r.job.namespace;
      if (!(await this.admission.acquire(r.job.id, ns, (message) => this.tell(r, message)))) return;
      try {
        let failures = r.job.failureCount;
        for (let attempt = 1; !r.stopping; attempt++) {
          const exit = await this.attempt(r, attempt);
          await r.sink.flush();
          // Canceled (by another replica) while its first run was being started: that run was killed.
          if (!exit) return;
          const v = verdict(exit, {
            attempt,
            attempts: r.job.attempts,
            failures,
            stopping: r.stopping,
            retriesItself: this.runner.retriesItself ?? false,
            timeoutSeconds: r.job.spec.timeoutSeconds,
          });
          if (v.kind === 'left') return;
          if (v.kind === 'end') {
            await this.writes.advance(r.job, ACTIVE_STAGES, {
              stage: v.stage,
              message: v.message,
              failureCount: v.failures,
              finishedAt: new Date(),
              runner: null,
            });
            return;
          }
          // Still RUNNING: the next attempt starts at once; the failure count tells the clients.
          failures = v.failures;
          const next = await this.writes.advance(r.job, ['RUNNING'], { failureCount: failures, message: v.message });
          if (!next) return;
          r.job = next;
        }
      } finally {
        this.admission.release(ns);
      }
    } finally {
      this.running.delete(r.job.id);
      await r.sink.end();
    }
  }

  /** A SCHEDULING job's status message (waiting for a slot, pulling its image): in its events stream. */
  private tell(r: Running, message: string): void {
    void this.writes
      .advance(r.job, ['SCHEDULING'], { message })
      .then((j) => {
        if (j && j.stage === 'SCHEDULING' && !r.run) r.job = j;
      })
      .catch((e: unknown) => this.logger.warn(`job ${r.job.id}: ${String(e)}`));
  }

  /**
   * One run of the job, to its end; null when the job was no longer SCHEDULING once its first run
   * was under way (then that run is killed). The first run's SCHEDULING → RUNNING transition
   * stores its handle in the same UPDATE: RUNNING means a process runs, and no extra round trip.
   * A crash before that UPDATE leaves no orphan: the spawn helper kills its runs when the service
   * goes away.
   */
  private async attempt(r: Running, attempt: number): Promise<RunExit | null> {
    const job = r.job;
    const sink = r.sink;
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
        void this.outbox.transaction(async (m) => {
          const j = await JobsStore.transition(m, job.id, ['RUNNING'], {
            failureCount,
            message: `attempt ${failureCount} failed; retrying`,
          });
          if (j) await recordStatus(this.outbox, m, j);
        }),
    });
    r.run = run;
    // Canceled or stopped while the run was being started.
    if (r.stopping) run.kill();
    const handle = run.handle ? { ...run.handle, ...(this.self ? { supervisor: this.self } : {}) } : null;
    try {
      if (attempt === 1) {
        const now = new Date();
        const started = await this.writes.advance(job, ['SCHEDULING'], {
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
        await JobsStore.setHandle(this.ds.manager, job.id, handle);
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
    for (const id of await JobsStore.heartbeat(this.ds.manager, beats)) this.canceled(id);
    await this.sweeper.sweep(this.replica, new Set(this.running.keys()));
  }
}
