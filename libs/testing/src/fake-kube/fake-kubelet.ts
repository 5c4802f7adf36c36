import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';

/* eslint-disable @typescript-eslint/no-explicit-any -- Kubernetes objects as the fake stores them: plain JSON */
export type Obj = Record<string, any>;

export interface FakePod {
  name: string;
  job: string;
  labels: Record<string, string>;
  phase: 'Pending' | 'Running' | 'Succeeded' | 'Failed';
  exitCode?: number;
  lines: string[];
  ended: boolean;
  listeners: Set<() => void>;
  child?: ChildProcess;
}

export interface KubeletHost {
  secret(name: string): Obj | undefined;
  /** The Job changed: store a new resourceVersion and tell watchers. */
  jobChanged(job: Obj): void;
}

/**
 * Runs a Job's pods like a kubelet would, on this machine: the container's command as a child
 * process (the image is not pulled), env resolved from values and Secret references, pod phases,
 * the Job's status (active, failed, succeeded, conditions), backoffLimit and activeDeadlineSeconds.
 */
export class FakeKubelet {
  readonly pods = new Map<string, FakePod>();
  private readonly deadlines = new Map<string, NodeJS.Timeout>();
  private readonly deleted = new Set<string>();

  constructor(private readonly host: KubeletHost) {}

  /** Starts the next pod of an unsuspended Job. */
  startPod(job: Obj): void {
    const spec = job.spec.template.spec.containers[0] as Obj;
    const name = `${job.metadata.name}-${randomBytes(3).toString('hex')}`;
    const pod: FakePod = {
      name,
      job: job.metadata.name,
      labels: job.spec.template.metadata.labels,
      phase: 'Pending',
      lines: [],
      ended: false,
      listeners: new Set(),
    };
    this.pods.set(name, pod);
    const env: Record<string, string> = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
    for (const e of spec.env ?? []) {
      if (e.valueFrom) {
        const ref = e.valueFrom.secretKeyRef;
        const data = this.host.secret(ref.name)?.data?.[ref.key];
        if (data === undefined) throw new Error(`pod ${name}: secret ${ref.name}/${ref.key} missing`);
        env[e.name] = Buffer.from(data, 'base64').toString('utf8');
      } else env[e.name] = e.value;
    }
    const argv = [...(spec.command ?? []), ...(spec.args ?? [])];
    job.status = { ...job.status, active: 1, ready: 0, startTime: job.status?.startTime ?? new Date().toISOString() };
    this.host.jobChanged(job);
    if (job.spec.activeDeadlineSeconds && !this.deadlines.has(job.metadata.name)) {
      this.deadlines.set(
        job.metadata.name,
        setTimeout(() => this.deadline(job), job.spec.activeDeadlineSeconds * 1000),
      );
    }
    setTimeout(() => {
      if (this.deleted.has(job.metadata.name)) return;
      const child = spawn(argv[0], argv.slice(1), { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      pod.child = child;
      pod.phase = 'Running';
      job.status = { ...job.status, ready: 1 };
      this.host.jobChanged(job);
      for (const s of [child.stdout, child.stderr])
        createInterface({ input: s, crlfDelay: Infinity }).on('line', (l) => {
          pod.lines.push(l);
          this.notify(pod);
        });
      child.on('close', (code) => this.exited(job, pod, code ?? 137));
    }, 30);
  }

  /** Job deleted (propagation Background): its pods are killed. */
  deleteJob(jobName: string): void {
    this.deleted.add(jobName);
    clearTimeout(this.deadlines.get(jobName));
    for (const p of this.pods.values()) if (p.job === jobName) this.kill(p);
  }

  stopAll(): void {
    for (const t of this.deadlines.values()) clearTimeout(t);
    for (const p of this.pods.values()) this.kill(p);
  }

  private kill(p: FakePod): void {
    if (p.child?.pid && p.exitCode === undefined) {
      try {
        process.kill(-p.child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    p.ended = true;
    this.notify(p);
  }

  private notify(p: FakePod): void {
    for (const l of p.listeners) l();
  }

  private final(job: Obj): boolean {
    return (job.status?.conditions ?? []).some(
      (c: Obj) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
    );
  }

  private exited(job: Obj, pod: FakePod, code: number): void {
    pod.exitCode = code;
    pod.phase = code === 0 ? 'Succeeded' : 'Failed';
    pod.ended = true;
    this.notify(pod);
    if (this.final(job) || this.deleted.has(job.metadata.name)) return;
    const st = job.status;
    if (code === 0) {
      job.status = {
        ...st,
        active: 0,
        ready: 0,
        succeeded: 1,
        completionTime: new Date().toISOString(),
        conditions: [{ type: 'Complete', status: 'True' }],
      };
      clearTimeout(this.deadlines.get(job.metadata.name));
    } else {
      const failed = (st.failed ?? 0) + 1;
      job.status = { ...st, active: 0, ready: 0, failed };
      if (failed > job.spec.backoffLimit) {
        job.status.conditions = [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded' }];
        clearTimeout(this.deadlines.get(job.metadata.name));
      }
    }
    this.host.jobChanged(job);
    if (!this.final(job)) this.startPod(job);
  }

  private deadline(job: Obj): void {
    if (this.final(job)) return;
    job.status = {
      ...job.status,
      active: 0,
      ready: 0,
      failed: (job.status.failed ?? 0) + 1,
      conditions: [{ type: 'Failed', status: 'True', reason: 'DeadlineExceeded' }],
    };
    for (const p of this.pods.values())
      if (p.job === job.metadata.name && !p.ended) {
        this.kill(p);
        p.phase = 'Failed';
      }
    this.host.jobChanged(job);
  }

  podObject(p: FakePod): Obj {
    const state =
      p.exitCode !== undefined
        ? { terminated: { exitCode: p.exitCode } }
        : p.phase === 'Running'
          ? { running: {} }
          : { waiting: { reason: 'ContainerCreating' } };
    return {
      metadata: { name: p.name, labels: p.labels, resourceVersion: '1', uid: p.name },
      status: { phase: p.phase, containerStatuses: [{ name: 'job', state }] },
    };
  }
}
