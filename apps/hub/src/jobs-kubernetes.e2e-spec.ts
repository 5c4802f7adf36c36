import { cancelJob, getJob, runJob, streamJobLogs } from '@huggingface/hub';
import {
  describeWithInfra,
  type FakeKubeApi,
  makeUser,
  processesWith,
  readSse,
  startFakeKubeApi,
  waitForStage,
} from '@hub/testing';
import { startTestHub, type TestHub } from './testing/test-hub';

const ADMIN = 'jobs-k8s-admin-token-for-tests';
const NS = 'hub-jobs-test';
const sh = (script: string): string[] => ['sh', '-c', script];
const lines = (data: string[]): string[] => data.map((d) => (JSON.parse(d) as { data: string }).data);

/**
 * The Kubernetes runner through the gateway, against an in-process fake Kubernetes API (no
 * cluster here): it checks every request and runs the Jobs' pods as local processes.
 */
describeWithInfra('all-in-one hub: jobs on the kubernetes runner (fake API server)', () => {
  let t: TestHub;
  let kube: FakeKubeApi;
  const target = () => ({ baseUrl: t.baseUrl, adminToken: ADMIN });

  beforeAll(async () => {
    kube = await startFakeKubeApi(NS);
    t = await startTestHub(
      {
        HUB_ADMIN_TOKEN: ADMIN,
        HUB_JOBS_HEARTBEAT_MS: '300',
        HUB_JOBS_RUNNER: 'kubernetes',
        HUB_JOBS_K8S_AUTH: 'kubeconfig',
        KUBECONFIG: kube.kubeconfig,
        HUB_JOBS_K8S_NAMESPACE: NS,
      },
      { listen: true },
    );
  });

  afterAll(async () => {
    await t?.close();
    await kube?.close();
  });

  afterEach(() => {
    expect(kube.problems).toEqual([]);
  });

  it('runs a Job: RUNNING, the pod log streams in order, COMPLETED; secrets only in a Secret owned by the Job', async () => {
    const user = await makeUser(target());
    const job = await runJob({
      namespace: user.name,
      accessToken: user.token,
      hubUrl: t.baseUrl,
      dockerImage: 'alpine:3',
      flavor: 't4-small',
      timeoutSeconds: 600,
      environment: { GREETING: 'hello' },
      secrets: { API_TOKEN: 'k8s-secret-4d2f' },
      command: sh('echo "$GREETING"; echo "token:$API_TOKEN"; sleep 1; for i in 1 2 3; do echo line-$i; done'),
    });
    await waitForStage(target(), user.token, user.name, job.id, ['RUNNING', 'COMPLETED']);
    const got: string[] = [];
    for await (const l of streamJobLogs({
      namespace: user.name,
      jobId: job.id,
      accessToken: user.token,
      hubUrl: t.baseUrl,
    }))
      got.push(l.message);
    expect(got).toEqual(['hello', 'token:k8s-secret-4d2f', 'line-1', 'line-2', 'line-3']);
    const done = await waitForStage(target(), user.token, user.name, job.id, ['COMPLETED', 'ERROR']);
    expect(done.status).toMatchObject({ stage: 'COMPLETED', failureCount: 0 });

    const k8sJob = kube.jobs.get(`hub-job-${job.id}`);
    expect(k8sJob?.spec).toMatchObject({ backoffLimit: 0, activeDeadlineSeconds: 600 });
    const container = k8sJob?.spec.template.spec.containers[0];
    expect(container).toMatchObject({
      image: 'alpine:3',
      command: ['sh', '-c', expect.any(String)],
      resources: { requests: { cpu: '4', memory: '15Gi', 'nvidia.com/gpu': '1' }, limits: { 'nvidia.com/gpu': '1' } },
    });
    expect(k8sJob?.spec.template.spec.nodeSelector).toEqual({ 'nvidia.com/gpu.product': 'Tesla-T4' });
    // The restricted Pod Security Standard: not root, the runtime's seccomp profile, no escalation, no capabilities.
    expect(k8sJob?.spec.template.spec.securityContext).toEqual({
      runAsNonRoot: true,
      runAsUser: 1000,
      runAsGroup: 1000,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(container.securityContext).toEqual({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
    expect(JSON.stringify(k8sJob)).not.toContain('k8s-secret-4d2f');
    expect(container.env).toContainEqual({
      name: 'API_TOKEN',
      valueFrom: { secretKeyRef: { name: `hub-job-${job.id}`, key: 'API_TOKEN' } },
    });
    const secret = kube.secrets.get(`hub-job-${job.id}`);
    expect(Buffer.from(secret?.data.API_TOKEN as string, 'base64').toString()).toBe('k8s-secret-4d2f');
    expect(secret?.metadata.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'Job', uid: k8sJob?.metadata.uid }),
    ]);
    // The runner watched with resourceVersions, was answered 410 Gone on its second watch, and listed the Job again.
    expect(kube.requests.some((r) => r.includes('watch=1') && r.includes('resourceVersion='))).toBe(true);
    expect(
      kube.requests.filter((r) => r.startsWith('GET /apis/batch/v1/') && !r.includes('watch=1')).length,
    ).toBeGreaterThan(0);
  });

  it("a failing pod is retried by the Job (attempts → backoffLimit): ERROR, failureCount 3, every attempt's lines", async () => {
    const user = await makeUser(target());
    const job = await runJob({
      namespace: user.name,
      accessToken: user.token,
      hubUrl: t.baseUrl,
      dockerImage: 'alpine:3',
      flavor: 'cpu-basic',
      attempts: 3,
      command: sh('echo try; exit 3'),
    });
    const done = await waitForStage(target(), user.token, user.name, job.id, ['COMPLETED', 'ERROR']);
    expect(done.status).toMatchObject({ stage: 'ERROR', failureCount: 3 });
    expect(done.status.message).toMatch(/code 3/);
    expect(kube.jobs.get(`hub-job-${job.id}`)?.spec.backoffLimit).toBe(2);
    expect(lines((await readSse(`${t.baseUrl}/api/jobs/${user.name}/${job.id}/logs`, user.token)).data)).toEqual([
      'try',
      'try',
      'try',
    ]);
  });

  it('timeoutSeconds → activeDeadlineSeconds: the job ends ERROR "timed out"', async () => {
    const user = await makeUser(target());
    const job = await runJob({
      namespace: user.name,
      accessToken: user.token,
      hubUrl: t.baseUrl,
      dockerImage: 'alpine:3',
      flavor: 'cpu-basic',
      timeoutSeconds: 1,
      command: sh('sleep 30'),
    });
    const done = await waitForStage(target(), user.token, user.name, job.id, ['COMPLETED', 'ERROR', 'CANCELED']);
    expect(done.status.stage).toBe('ERROR');
    expect(done.status.message).toMatch(/timed out after 1 second/i);
    expect(kube.jobs.get(`hub-job-${job.id}`)?.spec.activeDeadlineSeconds ?? 1).toBe(1);
  });

  it('cancel deletes the Job with propagationPolicy Background: its pod dies, its Secret and Service go with it', async () => {
    const user = await makeUser(target());
    const marker = String(700_000 + Math.floor(Math.random() * 99_999));
    const res = await fetch(`${t.baseUrl}/api/jobs/${user.name}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        dockerImage: 'alpine:3',
        flavor: 'cpu-basic',
        secrets: { S: 'x' },
        expose: { ports: [8000] },
        command: sh(`echo up; sleep ${marker}`),
      }),
    });
    expect(res.status).toBe(200);
    const job = (await res.json()) as { id: string };
    const name = `hub-job-${job.id}`;
    const seen = Date.now() + 10_000;
    while (processesWith(`sleep ${marker}`).length === 0 && Date.now() < seen)
      await new Promise((r) => setTimeout(r, 50));
    expect(kube.services.get(name)?.spec).toMatchObject({
      selector: { 'hub.jobs/job-id': job.id },
      ports: [{ port: 8000, targetPort: 8000 }],
    });
    expect(kube.secrets.has(name)).toBe(true);
    const canceled = await cancelJob({
      namespace: user.name,
      jobId: job.id,
      accessToken: user.token,
      hubUrl: t.baseUrl,
    });
    expect(canceled.status.stage).toBe('CANCELED');
    const gone = Date.now() + 5000;
    while (kube.jobs.has(name) && Date.now() < gone) await new Promise((r) => setTimeout(r, 50));
    expect(kube.deletions).toContainEqual({ name, propagationPolicy: 'Background' });
    expect([kube.jobs.has(name), kube.secrets.has(name), kube.services.has(name)]).toEqual([false, false, false]);
    while (processesWith(`sleep ${marker}`).length > 0 && Date.now() < gone)
      await new Promise((r) => setTimeout(r, 50));
    expect(processesWith(`sleep ${marker}`)).toEqual([]);
    expect(
      (await getJob({ namespace: user.name, jobId: job.id, accessToken: user.token, hubUrl: t.baseUrl })).status.stage,
    ).toBe('CANCELED');
  });
});
