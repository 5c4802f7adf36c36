import { type JobRun, type JobRunner, type RunExit, type RunHandle, type RunRequest } from '../job-runner';
import { KubeApiError, type KubeClient } from './kube-client';
import {
  JOB_ID_LABEL,
  jobManifest,
  kubeName,
  type ManifestSettings,
  type OwnerRef,
  secretManifest,
  serviceManifest,
} from './job-manifests';

interface KubeMeta {
  name: string;
  uid: string;
  resourceVersion: string;
}
interface KubeJob {
  metadata: KubeMeta;
  spec?: { suspend?: boolean };
  status?: { failed?: number; succeeded?: number; conditions?: { type: string; status: string; reason?: string }[] };
}
interface KubePod {
  metadata: KubeMeta;
  status?: { phase?: string; containerStatuses?: { state?: { terminated?: { exitCode: number } } }[] };
}
interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: KubeJob & { code?: number };
}

const POD_POLL_MS = 1000;
/** How long the lines of a finished Job's pods may keep coming before the run ends. */
const LOG_DRAIN_MS = 10_000;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** One run = one batch/v1 Job, watched to its end; its pods' logs followed as they start. */
class KubeRun {
  private rv = '';
  private failures = 0;
  private lastExitCode: number | undefined;
  private final: RunExit | undefined;
  private readonly followed = new Map<string, Promise<void>>();
  private watchAbort = new AbortController();

  constructor(
    private readonly kube: KubeClient,
    private readonly s: ManifestSettings,
    private readonly req: RunRequest,
    private readonly signal: AbortSignal,
  ) {
    signal.addEventListener('abort', () => this.watchAbort.abort(), { once: true });
  }

  private get base(): string {
    return `/apis/batch/v1/namespaces/${this.s.namespace}/jobs`;
  }
  private get name(): string {
    return kubeName(this.req.jobId);
  }

  async run(): Promise<RunExit> {
    await this.create();
    const poll = setInterval(() => void this.followPods(), POD_POLL_MS);
    try {
      while (!this.final && !this.signal.aborted) await this.watchOnce();
    } finally {
      clearInterval(poll);
    }
    if (this.signal.aborted) return { code: null, signal: 'SIGKILL' };
    await this.followPods();
    let drain: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(this.followed.values()),
      new Promise<void>((r) => (drain = setTimeout(r, LOG_DRAIN_MS))),
    ]);
    clearTimeout(drain); // the drain's timer must not outlive the run
    return this.final ?? { code: null, signal: 'SIGKILL' };
  }

  /**
   * The Job (suspended while its Secret and Service are made), then those, owned by it, then resumed.
   * A server without Job `suspend` (Kubernetes 1.20, or 1.21 with the SuspendJob gate off) drops
   * the field: the Job's pod is made at once and its container waits, the kubelet retrying, until
   * the Secret exists; nothing is resumed then (decision 0202).
   */
  private async create(): Promise<void> {
    const needsFirst = Object.keys(this.req.secrets).length > 0 || !!this.req.expose?.ports.length;
    const job = await this.kube.json<KubeJob>({
      method: 'POST',
      path: this.base,
      body: jobManifest(this.req, this.s, needsFirst),
    });
    this.rv = job.metadata.resourceVersion;
    const suspended = job.spec?.suspend === true;
    if (this.signal.aborted) throw new Error('canceled while the Job was created');
    const owner: OwnerRef = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      name: job.metadata.name,
      uid: job.metadata.uid,
      blockOwnerDeletion: false,
    };
    const core = `/api/v1/namespaces/${this.s.namespace}`;
    if (Object.keys(this.req.secrets).length > 0)
      await this.kube.json({ method: 'POST', path: `${core}/secrets`, body: secretManifest(this.req, this.s, owner) });
    if (this.req.expose?.ports.length) {
      await this.kube.json({
        method: 'POST',
        path: `${core}/services`,
        body: serviceManifest({ ...this.req, expose: this.req.expose }, this.s, owner),
      });
    }
    if (suspended) {
      await this.kube.json({
        method: 'PATCH',
        path: `${this.base}/${this.name}`,
        body: { spec: { suspend: false } },
        contentType: 'application/merge-patch+json',
      });
    }
  }

  /** One watch from the last resourceVersion; on 410 Gone the Job is listed again and the watch resumes from the list's version. */
  private async watchOnce(): Promise<void> {
    let gone = false;
    this.watchAbort = new AbortController();
    if (this.signal.aborted) return;
    const q = `fieldSelector=${encodeURIComponent(`metadata.name=${this.name}`)}`;
    try {
      await this.kube.lines(
        `${this.base}?watch=1&${q}&resourceVersion=${this.rv}&allowWatchBookmarks=true`,
        (line) => {
          const ev = JSON.parse(line) as WatchEvent;
          if (ev.type === 'ERROR') {
            gone ||= ev.object.code === 410;
            return;
          }
          this.rv = ev.object.metadata.resourceVersion;
          if (ev.type === 'DELETED')
            this.final ??= { code: null, signal: 'SIGKILL', error: 'its Kubernetes Job was deleted' };
          else if (ev.type !== 'BOOKMARK') this.onJob(ev.object);
          if (this.final) this.watchAbort.abort();
        },
        this.watchAbort.signal,
      );
    } catch (e) {
      if (e instanceof KubeApiError && e.status === 410) gone = true;
      else if (!this.signal.aborted) await sleep(500);
    }
    if (!gone || this.final) return;
    const list = await this.kube.json<{ metadata: { resourceVersion: string }; items: KubeJob[] }>({
      method: 'GET',
      path: `${this.base}?${q}`,
    });
    this.rv = list.metadata.resourceVersion;
    if (list.items[0]) this.onJob(list.items[0]);
    else this.final = { code: null, signal: 'SIGKILL', error: 'its Kubernetes Job was deleted' };
  }

  /** Conditions → the run's end; `status.failed` growing → a retry the supervisor reports. */
  private onJob(job: KubeJob): void {
    const failed = job.status?.failed ?? 0;
    const done = (type: string): { reason?: string } | undefined =>
      job.status?.conditions?.find((c) => c.type === type && c.status === 'True');
    const complete = done('Complete');
    const failedCond = done('Failed');
    if (complete) this.final = { code: 0, signal: null, failures: failed };
    else if (failedCond?.reason === 'DeadlineExceeded')
      this.final = { code: null, signal: null, timedOut: true, failures: Math.max(1, failed) };
    else if (failedCond) this.final = { code: this.lastExitCode ?? 1, signal: null, failures: Math.max(1, failed) };
    else if (failed > this.failures) this.req.onAttemptFailed?.(failed);
    this.failures = failed;
    void this.followPods();
  }

  /** Follows the log of every pod of the job whose container has started (once each). */
  private async followPods(): Promise<void> {
    if (this.signal.aborted) return;
    const selector = encodeURIComponent(`${JOB_ID_LABEL}=${this.req.jobId}`);
    const pods = await this.kube
      .json<{ items: KubePod[] }>({
        method: 'GET',
        path: `/api/v1/namespaces/${this.s.namespace}/pods?labelSelector=${selector}`,
      })
      .catch(() => ({ items: [] as KubePod[] }));
    for (const pod of pods.items) {
      const exit = pod.status?.containerStatuses?.[0]?.state?.terminated?.exitCode;
      if (exit !== undefined && exit !== 0) this.lastExitCode = exit;
      const phase = pod.status?.phase ?? 'Pending';
      if (phase === 'Pending' || this.followed.has(pod.metadata.name)) continue;
      const path = `/api/v1/namespaces/${this.s.namespace}/pods/${pod.metadata.name}/log?container=job&follow=true`;
      this.followed.set(
        pod.metadata.name,
        this.kube.lines(path, (l) => this.req.onLine(l), this.signal).catch(() => undefined),
      );
    }
  }
}

/**
 * Runs jobs as Kubernetes Jobs in one namespace (HUB_JOBS_K8S_NAMESPACE): the Job retries
 * (`backoffLimit`) and enforces the deadline (`activeDeadlineSeconds`); cancel deletes it with
 * propagationPolicy Background (its pods, Secret and Service go with it).
 */
export class KubernetesRunner implements JobRunner {
  readonly retriesItself = true;

  constructor(
    private readonly kube: KubeClient,
    private readonly settings: ManifestSettings,
  ) {}

  async start(req: RunRequest): Promise<JobRun> {
    const abort = new AbortController();
    const name = kubeName(req.jobId);
    const done = new KubeRun(this.kube, this.settings, req, abort.signal)
      .run()
      .catch((e: unknown): RunExit =>
        abort.signal.aborted
          ? { code: null, signal: 'SIGKILL' }
          : { code: null, signal: null, error: e instanceof Error ? e.message : String(e) },
      )
      // Whatever ended the run, nothing stays in the cluster but a finished Job (kept 1 h by ttlSecondsAfterFinished).
      .then(async (exit) => {
        if (exit.signal === 'SIGKILL' || exit.error) await this.deleteJob(name).catch(() => undefined);
        return exit;
      });
    return {
      done,
      handle: { kind: 'kubernetes', namespace: this.settings.namespace, job: name },
      kill: () => abort.abort(),
    };
  }

  async reap(handle: RunHandle): Promise<void> {
    if (handle.kind === 'kubernetes') await this.deleteJob(handle.job, handle.namespace);
  }

  private async deleteJob(name: string, namespace = this.settings.namespace): Promise<void> {
    try {
      await this.kube.json({
        method: 'DELETE',
        path: `/apis/batch/v1/namespaces/${namespace}/jobs/${name}`,
        body: { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Background' },
      });
    } catch (e) {
      if (!(e instanceof KubeApiError && e.status === 404)) throw e;
    }
  }
}
