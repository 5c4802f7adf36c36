import { randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeKubelet, type Obj } from './fake-kubelet';
import { checkJob, checkOwned } from './fake-kube-checks';

export interface FakeKubeApi {
  url: string;
  /** A kubeconfig (current context → this server, bearer token) for HUB_JOBS_K8S_AUTH=kubeconfig. */
  kubeconfig: string;
  /** Every request that broke the runner's contract (wrong path, body, header…): a test expects none. */
  problems: string[];
  requests: string[];
  jobs: Map<string, Obj>;
  secrets: Map<string, Obj>;
  services: Map<string, Obj>;
  /** Job names deleted, with the propagation policy asked for. */
  deletions: { name: string; propagationPolicy?: string }[];
  close(): Promise<void>;
}

/** A watch stream is closed by the server after this long (as a real API server does, sooner): the runner re-watches. */
const WATCH_MS = 500;

export interface FakeKubeOptions {
  /**
   * Like Kubernetes 1.20 (or 1.21 with the SuspendJob gate off): a created Job's `spec.suspend` is
   * dropped as an unknown field and a merge patch of it changes nothing, so the pod is made at once
   * and waits for its Secret (the kubelet retries) instead of the Job waiting to be resumed.
   */
  withoutJobSuspend?: boolean;
}

/**
 * An in-process Kubernetes API for the Kubernetes runner's tests (there is no cluster here): the
 * few endpoints the runner needs in one namespace, each request checked, Jobs run by a fake
 * kubelet, watches with resourceVersions (the second watch of each Job answered 410 Gone, so
 * the runner must list again), pod logs with follow.
 */
export async function startFakeKubeApi(namespace: string, options: FakeKubeOptions = {}): Promise<FakeKubeApi> {
  const token = randomBytes(16).toString('hex');
  let rv = 100;
  const history: { rv: number; type: string; job: string; object: Obj }[] = [];
  const watchers = new Set<{ job: string; send: (ev: Obj) => void }>();
  const watchCount = new Map<string, number>();
  const jobs = new Map<string, Obj>();
  const secrets = new Map<string, Obj>();
  const services = new Map<string, Obj>();
  const problems: string[] = [];
  const requests: string[] = [];
  const deletions: FakeKubeApi['deletions'] = [];
  const open = new Set<ServerResponse>();

  const emit = (type: string, job: Obj): void => {
    job.metadata.resourceVersion = String(++rv);
    const object = JSON.parse(JSON.stringify(job)) as Obj;
    history.push({ rv, type, job: job.metadata.name, object });
    for (const w of watchers) if (w.job === job.metadata.name) w.send({ type, object });
  };
  const kubelet = new FakeKubelet({ secret: (n) => secrets.get(n), jobChanged: (j) => emit('MODIFIED', j) });
  // A kubelet does not start a container whose Secret is missing: it tries again until it exists.
  const retries = new Set<NodeJS.Timeout>();
  const startWhenSecretExists = (job: Obj): void => {
    const refs = (job.spec.template.spec.containers[0].env ?? []) as Obj[];
    if (!jobs.has(job.metadata.name)) return;
    if (!refs.some((e) => e.valueFrom) || secrets.has(job.metadata.name)) return kubelet.startPod(job);
    const t = setTimeout(() => {
      retries.delete(t);
      startWhenSecretExists(job);
    }, 50);
    retries.add(t);
  };

  const send = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const fail = (res: ServerResponse, status: number, problem: string): void => {
    problems.push(problem);
    send(res, status, { kind: 'Status', status: 'Failure', code: status, message: problem });
  };
  const readBody = (req: IncomingMessage): Promise<Obj | undefined> =>
    new Promise((resolve) => {
      const chunks: Buffer[] = [];
      req
        .on('data', (c: Buffer) => chunks.push(c))
        .on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve(text ? (JSON.parse(text) as Obj) : undefined);
          } catch {
            resolve(undefined);
          }
        });
    });

  const ns = `/namespaces/${namespace}`;
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://x');
    const what = `${req.method} ${url.pathname}${url.search}`;
    requests.push(what);
    if (req.headers.authorization !== `Bearer ${token}`) return fail(res, 401, `${what}: no or wrong bearer token`);
    const body = await readBody(req);
    const p = url.pathname;
    const jobsPath = `/apis/batch/v1${ns}/jobs`;
    if (req.method === 'POST' && p === jobsPath) {
      const bad = checkJob(body, req.headers['content-type'], namespace);
      if (bad) return fail(res, 422, `${what}: ${bad}`);
      const job = body as Obj;
      if (jobs.has(job.metadata.name)) return fail(res, 409, `${what}: ${job.metadata.name} exists`);
      job.metadata.uid = randomUUID();
      job.status = {};
      if (options.withoutJobSuspend) delete job.spec.suspend;
      jobs.set(job.metadata.name, job);
      emit('ADDED', job);
      if (!job.spec.suspend) startWhenSecretExists(job);
      return send(res, 201, job);
    }
    if (req.method === 'GET' && p === jobsPath) {
      const name = /^metadata\.name=(.+)$/.exec(url.searchParams.get('fieldSelector') ?? '')?.[1];
      if (!name) return fail(res, 400, `${what}: the runner must select its one Job by metadata.name`);
      if (url.searchParams.get('watch') !== '1')
        return send(res, 200, {
          kind: 'JobList',
          metadata: { resourceVersion: String(rv) },
          items: jobs.has(name) ? [jobs.get(name)] : [],
        });
      const from = Number(url.searchParams.get('resourceVersion'));
      if (!from) return fail(res, 400, `${what}: a watch without resourceVersion`);
      res.writeHead(200, { 'content-type': 'application/json' });
      const n = (watchCount.get(name) ?? 0) + 1;
      watchCount.set(name, n);
      if (n === 2) {
        // As after etcd compaction: the version is too old; the runner must list and watch again.
        res.end(
          `${JSON.stringify({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version' } })}\n`,
        );
        return;
      }
      const w = { job: name, send: (ev: Obj) => res.write(`${JSON.stringify(ev)}\n`) };
      for (const h of history) if (h.job === name && h.rv > from) w.send({ type: h.type, object: h.object });
      watchers.add(w);
      open.add(res);
      const t = setTimeout(() => res.end(), WATCH_MS);
      res.on('close', () => {
        clearTimeout(t);
        watchers.delete(w);
        open.delete(res);
      });
      return;
    }
    const one = new RegExp(`^${jobsPath}/([a-z0-9-]+)$`).exec(p);
    if (one && req.method === 'PATCH') {
      const job = jobs.get(one[1]);
      if (!job) return fail(res, 404, `${what}: no such Job`);
      if (req.headers['content-type'] !== 'application/merge-patch+json')
        return fail(res, 415, `${what}: content-type ${req.headers['content-type']}`);
      if (JSON.stringify(body) !== '{"spec":{"suspend":false}}')
        return fail(res, 422, `${what}: unexpected patch ${JSON.stringify(body)}`);
      if (options.withoutJobSuspend) return send(res, 200, job);
      if (
        (job.spec.template.spec.containers[0].env as Obj[]).some((e) => e.valueFrom) &&
        !secrets.has(job.metadata.name)
      ) {
        problems.push(`${what}: resumed before its Secret exists`);
      }
      job.spec.suspend = false;
      emit('MODIFIED', job);
      kubelet.startPod(job);
      return send(res, 200, job);
    }
    if (one && req.method === 'DELETE') {
      const job = jobs.get(one[1]);
      const policy =
        (body?.propagationPolicy as string | undefined) ?? url.searchParams.get('propagationPolicy') ?? undefined;
      deletions.push({ name: one[1], propagationPolicy: policy });
      if (!job) return send(res, 404, { kind: 'Status', code: 404 });
      if (policy !== 'Background')
        problems.push(`${what}: propagationPolicy ${policy ?? 'unset'} (pods would be orphaned)`);
      jobs.delete(one[1]);
      kubelet.deleteJob(one[1]);
      // The garbage collector: what the Job owns goes with it.
      for (const m of [secrets, services])
        for (const [k, o] of m) if (o.metadata.ownerReferences?.[0]?.uid === job.metadata.uid) m.delete(k);
      emit('DELETED', job);
      return send(res, 200, { kind: 'Status', status: 'Success' });
    }
    for (const [kind, store] of [
      ['secrets', secrets],
      ['services', services],
    ] as const) {
      if (req.method === 'POST' && p === `/api/v1${ns}/${kind}`) {
        const bad = checkOwned(body, kind, jobs, namespace);
        if (bad) return fail(res, 422, `${what}: ${bad}`);
        store.set((body as Obj).metadata.name, body as Obj);
        return send(res, 201, body);
      }
    }
    if (req.method === 'GET' && p === `/api/v1${ns}/pods`) {
      const [k, v] = (url.searchParams.get('labelSelector') ?? '').split('=');
      if (!k || !v) return fail(res, 400, `${what}: pods listed without a label selector`);
      return send(res, 200, {
        kind: 'PodList',
        metadata: { resourceVersion: String(rv) },
        items: [...kubelet.pods.values()].filter((x) => x.labels[k] === v).map((x) => kubelet.podObject(x)),
      });
    }
    const log = new RegExp(`^/api/v1${ns}/pods/([a-z0-9-]+)/log$`).exec(p);
    if (log && req.method === 'GET') {
      const pod = kubelet.pods.get(log[1]);
      if (!pod) return fail(res, 404, `${what}: no such pod`);
      if (url.searchParams.get('follow') !== 'true' || url.searchParams.get('container') !== 'job')
        return fail(res, 400, `${what}: logs must be followed, of container job`);
      res.writeHead(200, { 'content-type': 'text/plain' });
      open.add(res);
      let sent = 0;
      const flush = (): void => {
        while (sent < pod.lines.length) res.write(`${pod.lines[sent++]}\n`);
        if (pod.ended) res.end();
      };
      pod.listeners.add(flush);
      res.on('close', () => {
        pod.listeners.delete(flush);
        open.delete(res);
      });
      flush();
      return;
    }
    fail(res, 404, `${what}: not an endpoint the runner needs (or outside namespace ${namespace})`);
  };

  const server = createServer((req, res) => void handle(req, res).catch((e: unknown) => fail(res, 500, String(e))));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const kubeconfig = join(tmpdir(), `fake-kubeconfig-${token}.yaml`);
  writeFileSync(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      'current-context: fake',
      'contexts:',
      '- name: fake',
      '  context: {cluster: fake, user: runner}',
      'clusters:',
      '- name: fake',
      `  cluster: {server: "${url}"}`,
      'users:',
      '- name: runner',
      `  user: {token: "${token}"}`,
      '',
    ].join('\n'),
  );
  return {
    url,
    kubeconfig,
    problems,
    requests,
    jobs,
    secrets,
    services,
    deletions,
    async close() {
      for (const t of retries) clearTimeout(t);
      kubelet.stopAll();
      for (const r of open) r.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
