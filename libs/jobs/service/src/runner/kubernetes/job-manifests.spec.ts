import { type RunRequest } from '../job-runner';
import { JOB_POD_UID, jobManifest, secretManifest, serviceManifest } from './job-manifests';

const settings = { namespace: 'hub-jobs', spaceImage: 'hub/space:1' };
const jobId = '0123456789abcdef01234567';
const name = `hub-job-${jobId}`;
const labels = { 'app.kubernetes.io/managed-by': 'hub-jobs', 'hub.jobs/job-id': jobId };
const owner = { apiVersion: 'batch/v1', kind: 'Job', name, uid: 'job-uid-1', blockOwnerDeletion: false };
const request = (over: Partial<RunRequest> = {}): RunRequest => ({
  jobId,
  attempt: 1,
  flavor: 'cpu-basic',
  dockerImage: 'alpine:3',
  command: ['sh', '-c', 'echo hi'],
  env: { GREETING: 'hello' },
  secrets: {},
  onLine: () => undefined,
  ...over,
});

/** What the runner asks the cluster for (the real-cluster run of `npm run test:k8s` checks what it then does). */
describe('Kubernetes manifests of a job', () => {
  it('a Job whose pod passes the restricted Pod Security Standard: uid 1000, RuntimeDefault seccomp, no escalation, no capabilities', () => {
    const job = jobManifest(request(), settings, false);
    const pod = job.spec?.template.spec;
    expect(job.metadata).toEqual({ name, namespace: 'hub-jobs', labels });
    expect(pod?.securityContext).toEqual({
      runAsNonRoot: true,
      runAsUser: JOB_POD_UID,
      runAsGroup: JOB_POD_UID,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(pod?.containers[0]?.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    expect(pod).toMatchObject({ restartPolicy: 'Never', automountServiceAccountToken: false });
    expect(pod).not.toHaveProperty('serviceAccountName');
    expect(JOB_POD_UID).toBe(1000);
  });

  it('attempts → backoffLimit, timeoutSeconds → activeDeadlineSeconds, finished Jobs kept an hour; not suspended when nothing must exist first', () => {
    expect(jobManifest(request({ attempts: 3, timeoutSeconds: 600 }), settings, false).spec).toMatchObject({
      backoffLimit: 2,
      activeDeadlineSeconds: 600,
      ttlSecondsAfterFinished: 3600,
    });
    const once = jobManifest(request({ timeoutSeconds: null }), settings, false).spec;
    expect(once).toMatchObject({ backoffLimit: 0 });
    expect(once).not.toHaveProperty('activeDeadlineSeconds');
    expect(once).not.toHaveProperty('suspend');
    expect(jobManifest(request(), settings, true).spec?.suspend).toBe(true);
  });

  it('the image, command and args as given (the space image when no dockerImage); the flavor as Guaranteed resources and a GPU node selector', () => {
    const job = jobManifest(request({ flavor: 't4-small', arguments: ['x'] }), settings, false);
    expect(job.spec?.template.spec?.containers[0]).toMatchObject({
      name: 'job',
      image: 'alpine:3',
      command: ['sh', '-c', 'echo hi'],
      args: ['x'],
      resources: {
        requests: { cpu: '4', memory: '15Gi', 'nvidia.com/gpu': '1' },
        limits: { cpu: '4', memory: '15Gi', 'nvidia.com/gpu': '1' },
      },
    });
    expect(job.spec?.template.spec?.nodeSelector).toEqual({ 'nvidia.com/gpu.product': 'Tesla-T4' });
    const space = jobManifest(request({ dockerImage: undefined, command: undefined }), settings, false);
    expect(space.spec?.template.spec?.containers[0]?.image).toBe('hub/space:1');
    expect(space.spec?.template.spec?.containers[0]).not.toHaveProperty('command');
  });

  it('secrets only in a Secret owned by the Job, read by reference: never in the Job itself', () => {
    const req = request({ secrets: { API_TOKEN: 'k8s-secret-4d2f' } });
    const job = jobManifest(req, settings, true);
    expect(JSON.stringify(job)).not.toContain('k8s-secret-4d2f');
    expect(job.spec?.template.spec?.containers[0]?.env).toEqual([
      { name: 'GREETING', value: 'hello' },
      { name: 'JOB_ID', value: jobId },
      { name: 'API_TOKEN', valueFrom: { secretKeyRef: { name, key: 'API_TOKEN' } } },
    ]);
    const secret = secretManifest(req, settings, owner);
    expect(secret).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'Opaque',
      metadata: { name, namespace: 'hub-jobs', labels, ownerReferences: [owner] },
      data: { API_TOKEN: Buffer.from('k8s-secret-4d2f').toString('base64') },
    });
  });

  it("exposed ports: container ports and a ClusterIP Service selecting the job's pods, owned by the Job", () => {
    const req = request({ expose: { ports: [8000, 9000] } });
    expect(jobManifest(req, settings, true).spec?.template.spec?.containers[0]?.ports).toEqual([
      { containerPort: 8000 },
      { containerPort: 9000 },
    ]);
    expect(serviceManifest({ ...req, expose: { ports: [8000, 9000] } }, settings, owner)).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, namespace: 'hub-jobs', labels, ownerReferences: [owner] },
      spec: {
        type: 'ClusterIP',
        selector: { 'hub.jobs/job-id': jobId },
        ports: [
          { name: 'port-8000', port: 8000, targetPort: 8000, protocol: 'TCP' },
          { name: 'port-9000', port: 9000, targetPort: 9000, protocol: 'TCP' },
        ],
      },
    });
  });

  it('a pod service account only when configured', () => {
    const job = jobManifest(request(), { ...settings, podServiceAccount: 'jobs-pods' }, false);
    expect(job.spec?.template.spec?.serviceAccountName).toBe('jobs-pods');
  });
});
