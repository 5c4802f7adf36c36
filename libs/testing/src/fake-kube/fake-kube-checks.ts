import { type Obj } from './fake-kubelet';
import { restrictedViolation } from './pod-security';

const NAME = /^hub-job-[0-9a-f]{24}$/;

/** What the fake API server demands of a created Job; a string names the first problem. */
export function checkJob(
  body: Obj | undefined,
  contentType: string | undefined,
  namespace: string,
): string | undefined {
  if (contentType !== 'application/json') return `content-type ${contentType ?? 'unset'}`;
  if (!body || body.apiVersion !== 'batch/v1' || body.kind !== 'Job') return 'not a batch/v1 Job';
  if (!NAME.test(body.metadata?.name ?? '')) return `bad name ${body.metadata?.name}`;
  if (body.metadata.namespace !== namespace) return `namespace ${body.metadata.namespace}`;
  const spec = body.spec as Obj;
  if (!Number.isInteger(spec.backoffLimit) || spec.backoffLimit < 0) return 'backoffLimit must be an integer ≥ 0';
  if (
    spec.activeDeadlineSeconds !== undefined &&
    !(Number.isInteger(spec.activeDeadlineSeconds) && spec.activeDeadlineSeconds > 0)
  )
    return 'bad activeDeadlineSeconds';
  const pod = spec.template?.spec as Obj | undefined;
  if (pod?.restartPolicy !== 'Never') return 'restartPolicy must be Never (the Job retries by backoffLimit)';
  if (pod.automountServiceAccountToken !== false) return 'job pods must not get an API token';
  if (spec.template.metadata?.labels?.['hub.jobs/job-id'] !== body.metadata.name.slice(8))
    return 'pods must carry the hub.jobs/job-id label';
  const containers = pod.containers as Obj[] | undefined;
  if (containers?.length !== 1 || containers[0].name !== 'job' || typeof containers[0].image !== 'string')
    return 'one container named job with an image';
  const c = containers[0];
  if (!c.resources?.requests?.cpu || !c.resources?.requests?.memory || !c.resources?.limits?.memory)
    return 'cpu/memory requests and a memory limit are required';
  // The jobs namespace enforces the restricted Pod Security Standard (k8s/base/jobs-namespace.yaml).
  const restricted = restrictedViolation(pod);
  if (restricted) return `violates the restricted Pod Security Standard: ${restricted}`;
  for (const e of (c.env ?? []) as Obj[]) {
    if (typeof e.name !== 'string') return 'env without a name';
    if (e.valueFrom && e.valueFrom.secretKeyRef?.name !== body.metadata.name)
      return `env ${e.name} refers to another Secret`;
    if (!e.valueFrom && typeof e.value !== 'string') return `env ${e.name} has no string value`;
  }
  const needsFirst = (c.env as Obj[]).some((e) => e.valueFrom) || (c.ports ?? []).length > 0;
  if (needsFirst && spec.suspend !== true) return 'a Job whose Secret/Service must exist first is created suspended';
  return undefined;
}

/** A Secret or Service of a job: in the namespace, named like its Job, owned by it (uid). */
export function checkOwned(
  body: Obj | undefined,
  kind: 'secrets' | 'services',
  jobs: Map<string, Obj>,
  namespace: string,
): string | undefined {
  if (!body || body.apiVersion !== 'v1' || body.kind !== (kind === 'secrets' ? 'Secret' : 'Service'))
    return `not a v1 ${kind}`;
  if (body.metadata?.namespace !== namespace) return `namespace ${body.metadata?.namespace}`;
  const job = jobs.get(body.metadata.name);
  if (!job) return `no Job named ${body.metadata.name}`;
  const owner = (body.metadata.ownerReferences ?? [])[0] as Obj | undefined;
  if (
    owner?.kind !== 'Job' ||
    owner.apiVersion !== 'batch/v1' ||
    owner.uid !== job.metadata.uid ||
    owner.name !== job.metadata.name
  )
    return 'must be owned by its Job (ownerReferences with its uid)';
  if (kind === 'secrets') {
    for (const v of Object.values(body.data ?? {}))
      if (typeof v !== 'string' || Buffer.from(v, 'base64').toString('base64') !== v)
        return 'data values must be base64';
  } else if (body.spec?.selector?.['hub.jobs/job-id'] !== job.metadata.name.slice(8))
    return "the Service must select the job's pods";
  return undefined;
}
