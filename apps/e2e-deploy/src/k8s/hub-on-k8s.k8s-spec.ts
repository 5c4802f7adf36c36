import { http, makeUser, readSse, waitForStage } from '@hub/testing';
import { env, type KubeList, kubectl } from './cluster';

interface KubeJob {
  metadata: { name: string; labels: Record<string, string> };
  spec: { suspend?: boolean; ttlSecondsAfterFinished?: number };
  status: { succeeded?: number; conditions?: { type: string; status: string }[] };
}
interface KubePod {
  metadata: { name: string };
  spec: { nodeName: string; securityContext: { runAsUser?: number } };
  status: { phase: string };
}

/**
 * The hub as k8s/overlays/dev deploys it, on a real Kubernetes 1.20.2 node (kubelet, containerd,
 * runc) that test-k8s.sh brought up, reached at the gateway pod's address (no kube-proxy there).
 * The jobs service runs with HUB_JOBS_RUNNER=kubernetes, its in-cluster service-account token and
 * the RBAC of jobs-rbac.yaml (decision 0202).
 */
describe('the hub on Kubernetes 1.20, for real', () => {
  const hub = { baseUrl: env('HUB_K8S_GATEWAY_URL'), adminToken: env('HUB_K8S_ADMIN_TOKEN') };
  const node = env('HUB_K8S_NODE');

  it('answers through the gateway pod: a user made with the admin token is who whoami says', async () => {
    const user = await makeUser(hub, 'write', 'k8s');
    const whoami = await http(hub.baseUrl, 'GET', '/api/whoami-v2', { token: user.token });
    expect(whoami).toMatchObject({ status: 200, body: { name: user.name, type: 'user' } });
  });

  it('runs a job as a Kubernetes Job in hub-jobs: its pod runs on the node, its secret reaches it, its output reaches the job log', async () => {
    const user = await makeUser(hub, 'write', 'k8sjob');
    const res = await http<{ id: string }>(hub.baseUrl, 'POST', `/api/jobs/${user.name}`, {
      token: user.token,
      body: {
        dockerImage: 'alpine:3',
        flavor: 'cpu-basic',
        command: [
          'sh',
          '-c',
          'echo hello-from-kubernetes; echo "secret of ${#GREETING} characters"; id -u; cat /etc/hostname; ' +
            "grep -E '^(CapEff|NoNewPrivs|Seccomp):' /proc/self/status",
        ],
        secrets: { GREETING: 'seventeen-chars!!' },
      },
    });
    expect(res.status).toBe(200);
    const id = res.body.id;
    // A pod's first start on this loaded node (image unpack, CNI, and on 1.20 a kubelet retry
    // until the Secret exists) takes seconds to tens of seconds.
    const done = await waitForStage(hub, user.token, user.name, id, ['COMPLETED', 'ERROR'], 240_000);
    expect(done.status).toMatchObject({ stage: 'COMPLETED' });

    const logs = await readSse(`${hub.baseUrl}/api/jobs/${user.name}/${id}/logs`, user.token);
    const lines = logs.data.map((d) => (JSON.parse(d) as { data: string }).data);
    // The pod's host name is its own: hub-job-<id>-<suffix>, the Job's pod, not the jobs service's.
    expect(lines).toEqual([
      'hello-from-kubernetes',
      'secret of 17 characters',
      '1000',
      expect.stringMatching(new RegExp(`^hub-job-${id}-[a-z0-9]{5}$`)),
      // The restricted profile as the kernel applies it (decision 0622): no capability, no privilege
      // gain, the runtime's seccomp filter (mode 2).
      expect.stringMatching(/^CapEff:\s+0{16}$/),
      expect.stringMatching(/^NoNewPrivs:\s+1$/),
      expect.stringMatching(/^Seccomp:\s+2$/),
    ]);

    // What the cluster holds: the Job, labelled with the hub's id, complete; its pod ran on this node
    // as uid 1000 (decision 0622); TTL honoured (the feature gate the test turns on for 1.20).
    const jobs = kubectl<KubeList<KubeJob>>('-n', 'hub-jobs', 'get', 'jobs', '-l', `hub.jobs/job-id=${id}`);
    expect(jobs.items).toHaveLength(1);
    expect(jobs.items[0]).toMatchObject({
      metadata: { name: `hub-job-${id}` },
      spec: { ttlSecondsAfterFinished: 3600 },
      status: { succeeded: 1 },
    });
    const pods = kubectl<KubeList<KubePod>>('-n', 'hub-jobs', 'get', 'pods', '-l', `hub.jobs/job-id=${id}`);
    expect(pods.items.map((p) => [p.metadata.name, p.spec.nodeName, p.status.phase])).toEqual([
      [lines[3], node, 'Succeeded'],
    ]);
  });
});
