import { type V1Job, type V1OwnerReference, type V1Secret, type V1Service } from '@kubernetes/client-node';
import { type RunRequest } from '../job-runner';
import { flavorResources } from './flavor-resources';

export interface ManifestSettings {
  namespace: string;
  spaceImage: string;
  podServiceAccount?: string;
}

/** Label on the Job, its pods, Secret and Service: the hub's job id. */
export const JOB_ID_LABEL = 'hub.jobs/job-id';
export const MANAGED_BY = { 'app.kubernetes.io/managed-by': 'hub-jobs' };

/** The uid (and gid) of every job pod: not root, whatever the image says (restricted Pod Security Standard). */
export const JOB_POD_UID = 1000;

/** One name for the Job, its Secret and Service (ids are 24 lowercase hex: a valid DNS label). */
export const kubeName = (jobId: string): string => `hub-job-${jobId}`;

const labelsOf = (jobId: string): Record<string, string> => ({ ...MANAGED_BY, [JOB_ID_LABEL]: jobId });

/**
 * The batch/v1 Job of one run: retries by `backoffLimit` (attempts − 1), the deadline by
 * `activeDeadlineSeconds`, secrets from the Secret by reference (never in the Job's spec). Created
 * suspended when a Secret or Service must exist first (the runner resumes it once they do).
 */
export function jobManifest(req: RunRequest, s: ManifestSettings, suspend: boolean): V1Job {
  const name = kubeName(req.jobId);
  const { resources, nodeSelector } = flavorResources(req.flavor);
  const env = [
    ...Object.entries({ ...req.env, JOB_ID: req.jobId }).map(([k, value]) => ({ name: k, value })),
    ...Object.keys(req.secrets).map((k) => ({ name: k, valueFrom: { secretKeyRef: { name, key: k } } })),
  ];
  const container = {
    name: 'job',
    image: req.dockerImage ?? s.spaceImage,
    ...(req.command?.length ? { command: req.command } : {}),
    ...(req.arguments?.length ? { args: req.arguments } : {}),
    env,
    resources,
    ...(req.expose?.ports.length ? { ports: req.expose.ports.map((p) => ({ containerPort: p })) } : {}),
    securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
  };
  // The restricted Pod Security Standard (decision 0622): a user's image that expects root runs as JOB_POD_UID.
  const podSecurity = {
    runAsNonRoot: true,
    runAsUser: JOB_POD_UID,
    runAsGroup: JOB_POD_UID,
    seccompProfile: { type: 'RuntimeDefault' },
  };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: s.namespace, labels: labelsOf(req.jobId) },
    spec: {
      backoffLimit: Math.max(0, (req.attempts ?? 1) - 1),
      ...(req.timeoutSeconds ? { activeDeadlineSeconds: req.timeoutSeconds } : {}),
      ttlSecondsAfterFinished: 3600,
      ...(suspend ? { suspend: true } : {}),
      template: {
        metadata: { labels: labelsOf(req.jobId) },
        spec: {
          restartPolicy: 'Never',
          automountServiceAccountToken: false,
          securityContext: podSecurity,
          ...(s.podServiceAccount ? { serviceAccountName: s.podServiceAccount } : {}),
          ...(nodeSelector ? { nodeSelector } : {}),
          containers: [container],
        },
      },
    },
  };
}

/** The job's secrets, owned by its Job (garbage-collected with it). */
export function secretManifest(req: RunRequest, s: ManifestSettings, owner: V1OwnerReference): V1Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'Opaque',
    metadata: {
      name: kubeName(req.jobId),
      namespace: s.namespace,
      labels: labelsOf(req.jobId),
      ownerReferences: [owner],
    },
    data: Object.fromEntries(
      Object.entries(req.secrets).map(([k, v]) => [k, Buffer.from(v, 'utf8').toString('base64')]),
    ),
  };
}

/** `expose.ports` as a ClusterIP Service selecting the job's pods, owned by the Job. */
export function serviceManifest(
  req: RunRequest & { expose: { ports: number[] } },
  s: ManifestSettings,
  owner: V1OwnerReference,
): V1Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: kubeName(req.jobId),
      namespace: s.namespace,
      labels: labelsOf(req.jobId),
      ownerReferences: [owner],
    },
    spec: {
      type: 'ClusterIP',
      selector: { [JOB_ID_LABEL]: req.jobId },
      ports: req.expose.ports.map((p) => ({ name: `port-${p}`, port: p, targetPort: p, protocol: 'TCP' })),
    },
  };
}
