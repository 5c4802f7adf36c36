import { randomBytes } from 'node:crypto';
import { type FakeKubeApi, startFakeKubeApi } from '@hub/testing';
import { type RunRequest } from '../job-runner';
import { KubeClient } from './kube-client';
import { kubeconfigConnection } from './kube-config';
import { KubernetesRunner } from './kubernetes-runner';

const NAMESPACE = 'hub-jobs';

/**
 * A job with a secret through the Kubernetes runner on a server with Job `suspend` (1.21+: created
 * suspended, resumed once its Secret exists) and on one without it (1.20: the field is dropped, the
 * pod waits for its Secret, nothing is resumed). The same run, the same output, either way.
 */
describe.each([
  ['a server with Job suspend (1.21+)', false, ['PATCH']],
  ['Kubernetes 1.20 (no Job suspend: the field is dropped)', true, []],
])('KubernetesRunner on %s', (_name, withoutJobSuspend, patches) => {
  let api: FakeKubeApi;
  beforeEach(async () => {
    api = await startFakeKubeApi(NAMESPACE, { withoutJobSuspend });
  });
  afterEach(async () => {
    await api.close();
  });

  it('runs a job whose secret must exist before its pod starts, and follows its output to the end', async () => {
    const runner = new KubernetesRunner(new KubeClient(kubeconfigConnection(api.kubeconfig)), {
      namespace: NAMESPACE,
      spaceImage: 'alpine:3',
    });
    const lines: string[] = [];
    const req: RunRequest = {
      jobId: randomBytes(12).toString('hex'),
      attempt: 1,
      dockerImage: 'alpine:3',
      command: ['sh', '-c', 'echo "greeting: $GREETING"'],
      flavor: 'cpu-basic',
      env: {},
      secrets: { GREETING: 'hello' },
      onLine: (l) => lines.push(l),
    };
    const run = await runner.start(req);
    await expect(run.done).resolves.toMatchObject({ code: 0, signal: null });
    expect(lines).toEqual(['greeting: hello']);
    expect(api.problems).toEqual([]);
    expect(api.requests.filter((r) => r.startsWith('PATCH')).map((r) => r.split(' ')[0])).toEqual(patches);
    expect([...api.secrets.keys()]).toEqual([`hub-job-${req.jobId}`]);
  });
});
