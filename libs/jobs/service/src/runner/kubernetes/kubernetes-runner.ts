import { PassThrough } from 'node:stream';
import { createInterface } from 'node:readline';
import {
  ApiException,
  BatchV1Api,
  CoreV1Api,
  type KubeConfig,
  Log,
  PatchStrategy,
  setHeaderOptions,
  type V1Job,
  type V1OwnerReference,
  type V1Status,
  Watch,
} from '@kubernetes/client-node';
import { type JobRun, type JobRunner, type RunExit, type RunHandle, type RunRequest } from '../job-runner';
import { readCap } from '../../logs/read-cap';
import {
  JOB_ID_LABEL,
  jobManifest,
  kubeName,
  type ManifestSettings,
  secretManifest,
  serviceManifest,
} from './job-manifests';

/** The official client's parts the runner uses, made once from one KubeConfig (its auth refreshes itself). */
interface Kube {
  batch: BatchV1Api;
  core: CoreV1Api;
  watch: Watch;
  log: Log;
}

const POD_POLL_MS = 1000;
/** How long the lines of a finished Job's pods may keep coming before the run ends. */
const LOG_DRAIN_MS = 10_000;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** The HTTP status of a failed call: ApiException for API calls, `statusCode` on the watch's own error. */
const statusOf = (e: unknown): number | undefined =>
  e instanceof ApiException ? e.code : (e as { statusCode?: number } | null)?.statusCode;

/** A failed call as a job's message: the status and the API's own reason, never the client's dump of headers. */
function messageOf(e: unknown): string {
  if (!(e instanceof ApiException)) return e instanceof Error ? e.message : String(e);
  const body: unknown = typeof e.body === 'string' ? safeJson(e.body) : e.body;
  const reason = (body as { message?: unknown } | undefined)?.message;
  return `Kubernetes API answered ${e.code}${typeof reason === 'string' ? `: ${reason.slice(0, 300)}` : ''}`;
}
function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { message: text };
  }
}

/** One run = one batch/v1 Job, watched to its end; its pods' logs followed as they start. */
class KubeRun {
  private rv = '';
  private failures = 0;
  private lastExitCode: number | undefined;
  private final: RunExit | undefined;
  private readonly followed = new Map<string, Promise<void>>();
  /** Stops the log streams still open when the run ends. */
  private readonly logsAbort = new AbortController();

  constructor(
    private readonly kube: Kube,
    private readonly s: ManifestSettings,
    private readonly req: RunRequest,
    private readonly signal: AbortSignal,
  ) {}

  private get name(): string {
    return kubeName(this.req.jobId);
  }

  async run(): Promise<RunExit> {
    await this.create();
    const poll = setInterval(() => void this.followPods(), POD_POLL_MS);
    try {
      while (!this.final && !this.signal.aborted) await this.watchOnce();
      if (this.signal.aborted) return { code: null, signal: 'SIGKILL' };
      await this.followPods();
      let drain: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(this.followed.values()),
        new Promise<void>((r) => (drain = setTimeout(r, LOG_DRAIN_MS))),
      ]);
      clearTimeout(drain); // the drain's timer must not outlive the run
      return this.final ?? { code: null, signal: 'SIGKILL' };
    } finally {
      clearInterval(poll);
      this.logsAbort.abort();
    }
  }

  /**
   * The Job (suspended while its Secret and Service are made), then those, owned by it, then resumed.
   * A server without Job `suspend` (Kubernetes 1.20, or 1.21 with the SuspendJob gate off) drops
   * the field: the Job's pod is made at once and its container waits, the kubelet retrying, until
   * the Secret exists; nothing is resumed then (decision 0202).
   */
  private async create(): Promise<void> {
    const namespace = this.s.namespace;
    const needsFirst = Object.keys(this.req.secrets).length > 0 || !!this.req.expose?.ports.length;
    const job = await this.kube.batch.createNamespacedJob({
      namespace,
      body: jobManifest(this.req, this.s, needsFirst),
    });
    this.rv = job.metadata?.resourceVersion ?? '';
    if (this.signal.aborted) throw new Error('canceled while the Job was created');
    const owner: V1OwnerReference = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      name: job.metadata?.name ?? this.name,
      uid: job.metadata?.uid ?? '',
      blockOwnerDeletion: false,
    };
    if (Object.keys(this.req.secrets).length > 0)
      await this.kube.core.createNamespacedSecret({ namespace, body: secretManifest(this.req, this.s, owner) });
    if (this.req.expose?.ports.length) {
      const body = serviceManifest({ ...this.req, expose: this.req.expose }, this.s, owner);
      await this.kube.core.createNamespacedService({ namespace, body });
    }
    if (job.spec?.suspend === true) {
      await this.kube.batch.patchNamespacedJob(
        { name: this.name, namespace, body: { spec: { suspend: false } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
    }
  }

  /** One watch from the last resourceVersion; on 410 Gone the Job is listed again and the watch resumes from the list's version. */
  private async watchOnce(): Promise<void> {
    if (this.signal.aborted) return;
    let gone = false;
    const stop = new AbortController();
    const onCancel = (): void => stop.abort();
    this.signal.addEventListener('abort', onCancel, { once: true });
    const fieldSelector = `metadata.name=${this.name}`;
    try {
      const ended = new Promise<unknown>((resolve) => {
        void this.kube.watch
          .watch(
            `/apis/batch/v1/namespaces/${this.s.namespace}/jobs`,
            { fieldSelector, resourceVersion: this.rv, allowWatchBookmarks: true },
            (type: string, object: V1Job & V1Status) => {
              if (type === 'ERROR') {
                gone ||= object.code === 410;
                return;
              }
              this.rv = object.metadata?.resourceVersion ?? this.rv;
              if (type === 'DELETED')
                this.final ??= { code: null, signal: 'SIGKILL', error: 'its Kubernetes Job was deleted' };
              else if (type !== 'BOOKMARK') this.onJob(object);
              if (this.final) stop.abort();
            },
            resolve,
          )
          .then((req) => (stop.signal.aborted ? req.abort() : stop.signal.addEventListener('abort', () => req.abort())))
          .catch(resolve);
      });
      const err = await ended;
      if (statusOf(err) === 410) gone = true;
      else if (err && !stop.signal.aborted) await sleep(500);
    } finally {
      this.signal.removeEventListener('abort', onCancel);
    }
    if (!gone || this.final || this.signal.aborted) return;
    const list = await this.kube.batch.listNamespacedJob({ namespace: this.s.namespace, fieldSelector });
    this.rv = list.metadata?.resourceVersion ?? '';
    if (list.items[0]) this.onJob(list.items[0]);
    else this.final = { code: null, signal: 'SIGKILL', error: 'its Kubernetes Job was deleted' };
  }

  /** Conditions → the run's end; `status.failed` growing → a retry the supervisor reports. */
  private onJob(job: V1Job): void {
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
    const pods = await this.kube.core
      .listNamespacedPod({ namespace: this.s.namespace, labelSelector: `${JOB_ID_LABEL}=${this.req.jobId}` })
      .catch(() => ({ items: [] }));
    for (const pod of pods.items) {
      const exit = pod.status?.containerStatuses?.[0]?.state?.terminated?.exitCode;
      if (exit !== undefined && exit !== 0) this.lastExitCode = exit;
      const name = pod.metadata?.name;
      const phase = pod.status?.phase ?? 'Pending';
      if (!name || phase === 'Pending' || this.followed.has(name)) continue;
      this.followed.set(name, this.followLog(name));
    }
  }

  /** A pod's log, followed (streamed) line by line until the container's output ends, the run is canceled or it ends. */
  private async followLog(pod: string): Promise<void> {
    // Decision 0631: read at most HUB_JOBS_LOG_READ_BYTES a second (the log request waits past it).
    const out = this.req.readBytes ? readCap(this.req.readBytes) : new PassThrough();
    const lines = createInterface({ input: out, crlfDelay: Infinity });
    lines.on('line', (l) => this.req.onLine(l));
    const closed = new Promise<void>((r) => lines.once('close', r));
    const stops = [this.signal, this.logsAbort.signal];
    try {
      const req = await this.kube.log.log(this.s.namespace, pod, 'job', out, { follow: true });
      const stop = (): void => {
        req.abort();
        out.end();
      };
      if (stops.some((s) => s.aborted)) stop();
      else for (const s of stops) s.addEventListener('abort', stop, { once: true });
      await closed;
      for (const s of stops) s.removeEventListener('abort', stop);
    } catch {
      out.end(); // the pod went before its log was read: its lines are lost, the run goes on
    }
  }
}

/**
 * Runs jobs as Kubernetes Jobs in one namespace (HUB_JOBS_K8S_NAMESPACE) through the official
 * client: the Job retries (`backoffLimit`) and enforces the deadline (`activeDeadlineSeconds`);
 * cancel deletes it with propagationPolicy Background (its pods, Secret and Service go with it).
 */
export class KubernetesRunner implements JobRunner {
  readonly retriesItself = true;
  private readonly kube: Kube;

  constructor(
    config: KubeConfig,
    private readonly settings: ManifestSettings,
  ) {
    this.kube = {
      batch: config.makeApiClient(BatchV1Api),
      core: config.makeApiClient(CoreV1Api),
      watch: new Watch(config),
      log: new Log(config),
    };
  }

  async start(req: RunRequest): Promise<JobRun> {
    const abort = new AbortController();
    const name = kubeName(req.jobId);
    const done = new KubeRun(this.kube, this.settings, req, abort.signal)
      .run()
      .catch((e: unknown): RunExit =>
        abort.signal.aborted ? { code: null, signal: 'SIGKILL' } : { code: null, signal: null, error: messageOf(e) },
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
      await this.kube.batch.deleteNamespacedJob({ name, namespace, propagationPolicy: 'Background' });
    } catch (e) {
      if (statusOf(e) !== 404) throw e;
    }
  }
}
