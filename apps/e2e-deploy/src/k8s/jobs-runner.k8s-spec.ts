import { http, makeUser, readSse, waitForStage } from '@hub/testing';
import { env, hostPidOf, type KubeList, kubectl, namesOf, until } from './cluster';

interface Owned {
  metadata: { name: string; uid?: string; ownerReferences?: { kind: string; name: string; uid: string }[] };
}
interface KubePod {
  metadata: { name: string };
  status: { phase: string; containerStatuses?: { containerID?: string; restartCount: number }[] };
}

const sh = (script: string): string[] => ['sh', '-c', script];
const linesOf = (data: string[]): string[] => data.map((d) => (JSON.parse(d) as { data: string }).data);
/** While the jobs service restarts, the gateway answers 503/504: poll again. */
const throughRestarts = (): boolean => true;
/** Every object the hub made for a job, by kind (a job pod asks for 2 vCPUs: all this node has, so each test waits until its pods are gone). */
const leftOf = (id: string): string[] =>
  ['jobs', 'pods', 'secrets', 'services'].flatMap((k) => namesOf(k, id).map((n) => `${k}/${n}`));

/**
 * What the Kubernetes runner does on a real Kubernetes 1.20.2 node (the official client, the jobs
 * service's in-cluster token): the Job's own retries and deadline, cancel, and the sweep after the
 * jobs service dies mid-run. These ran against a fake API server before decision 0629.
 */
describe('the Kubernetes runner on Kubernetes 1.20, for real', () => {
  const hub = { baseUrl: env('HUB_K8S_GATEWAY_URL'), adminToken: env('HUB_K8S_ADMIN_TOKEN') };
  const start = async (token: string, ns: string, body: Record<string, unknown>): Promise<string> => {
    const res = await http<{ id: string }>(hub.baseUrl, 'POST', `/api/jobs/${ns}`, {
      token,
      body: { dockerImage: 'alpine:3', flavor: 'cpu-basic', ...body },
    });
    expect(res.status).toBe(200);
    return res.body.id;
  };
  const running = (id: string): string[] =>
    kubectl<KubeList<KubePod>>('-n', 'hub-jobs', 'get', 'pods', '-l', `hub.jobs/job-id=${id}`).items.map(
      (p) => p.status.phase,
    );

  it("a failing pod is retried by the Job (attempts → backoffLimit): ERROR, failureCount 3, every attempt's lines", async () => {
    const user = await makeUser(hub, 'write', 'k8sretry');
    const id = await start(user.token, user.name, { attempts: 3, command: sh('echo try; exit 3') });
    // The Job controller's back-off between pods is 10 s, then 20 s.
    const done = await waitForStage(hub, user.token, user.name, id, ['COMPLETED', 'ERROR'], 240_000);
    expect(done.status).toMatchObject({ stage: 'ERROR', failureCount: 3 });
    expect(done.status.message).toMatch(/code 3/);
    const logs = await readSse(`${hub.baseUrl}/api/jobs/${user.name}/${id}/logs`, user.token);
    expect(linesOf(logs.data)).toEqual(['try', 'try', 'try']);
    expect(
      kubectl<{ spec: { backoffLimit: number } }>('-n', 'hub-jobs', 'get', 'job', `hub-job-${id}`).spec,
    ).toMatchObject({
      backoffLimit: 2,
    });
  });

  it('timeoutSeconds → activeDeadlineSeconds: the job ends ERROR "timed out" and its pod is stopped', async () => {
    const user = await makeUser(hub, 'write', 'k8stimeout');
    const id = await start(user.token, user.name, { timeoutSeconds: 30, command: sh('echo started; sleep 600') });
    const done = await waitForStage(hub, user.token, user.name, id, ['COMPLETED', 'ERROR', 'CANCELED'], 240_000);
    expect(done.status.stage).toBe('ERROR');
    expect(done.status.message).toMatch(/timed out after 30 seconds/i);
    expect(
      await until(
        () => running(id),
        (phases) => !phases.includes('Running'),
      ),
    ).not.toContain('Running');
  });

  it('cancel deletes the Job (propagation Background): its pod, its Secret and its Service go with it', async () => {
    const user = await makeUser(hub, 'write', 'k8scancel');
    const id = await start(user.token, user.name, {
      secrets: { S: 'x' },
      expose: { ports: [8000] },
      command: sh('echo up; sleep 600'),
    });
    const name = `hub-job-${id}`;
    expect(
      await until(
        () => running(id),
        (phases) => phases.includes('Running'),
      ),
    ).toEqual(['Running']);
    // Owned by the Job the API server created (its uid), so the garbage collector removes them with it.
    const job = kubectl<Owned>('-n', 'hub-jobs', 'get', 'job', name);
    for (const kind of ['secret', 'service']) {
      expect(kubectl<Owned>('-n', 'hub-jobs', 'get', kind, name).metadata.ownerReferences).toEqual([
        expect.objectContaining({ kind: 'Job', name, uid: job.metadata.uid }),
      ]);
    }
    expect(kubectl<{ spec: unknown }>('-n', 'hub-jobs', 'get', 'service', name).spec).toMatchObject({
      selector: { 'hub.jobs/job-id': id },
      ports: [{ port: 8000, targetPort: 8000, protocol: 'TCP' }],
    });

    const canceled = await http<{ status: { stage: string } }>(
      hub.baseUrl,
      'POST',
      `/api/jobs/${user.name}/${id}/cancel`,
      {
        token: user.token,
      },
    );
    expect(canceled.status).toBe(200);
    expect(canceled.body.status.stage).toBe('CANCELED');
    expect(
      await until(
        () => leftOf(id),
        (left) => left.length === 0,
      ),
    ).toEqual([]);
  });

  it('the jobs service killed mid-run: once restarted, it settles the job ERROR and deletes its Job', async () => {
    const user = await makeUser(hub, 'write', 'k8sorphan');
    const id = await start(user.token, user.name, { command: sh('echo up; sleep 600') });
    expect(
      await until(
        () => running(id),
        (phases) => phases.includes('Running'),
      ),
    ).toEqual(['Running']);
    const [jobsPod] = kubectl<KubeList<KubePod>>('-n', 'hub', 'get', 'pods', '-l', 'app.kubernetes.io/name=jobs').items;
    const container = jobsPod?.status.containerStatuses?.[0];
    expect(container?.containerID).toBeTruthy();
    // SIGKILL to the service's process itself (pid 1 of its container): no shutdown hook runs, the
    // kubelet restarts the container, and the new process finds the job its dead predecessor ran.
    process.kill(hostPidOf(container?.containerID ?? ''), 'SIGKILL');
    const done = await waitForStage(hub, user.token, user.name, id, ['ERROR', 'COMPLETED'], 300_000, throughRestarts);
    expect(done.status).toMatchObject({
      stage: 'ERROR',
      message: 'the jobs service stopped while this job ran; its processes were killed',
    });
    expect(
      await until(
        () => leftOf(id),
        (left) => left.length === 0,
      ),
    ).toEqual([]);
    const restarted = kubectl<KubePod>('-n', 'hub', 'get', 'pod', jobsPod?.metadata.name ?? '');
    expect(restarted.status.containerStatuses?.[0]?.restartCount).toBe((container?.restartCount ?? 0) + 1);
  });
});
