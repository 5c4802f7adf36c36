import { avatarUrl } from '@hub/contracts';
import { type JobView } from '@hub/jobs-contract';
import { type JobsConfig } from '../jobs.config';
import { type JobEntity } from './job.entity';

export interface ViewSettings {
  jobsDomain: string;
  sshHost: string;
  /** Where avatars are served (HUB_PUBLIC_URL). */
  publicUrl: string;
}

/** Where exposed ports, SSH and avatars are reached, from the service's configuration. */
export const viewSettings = (config: JobsConfig): ViewSettings => ({
  jobsDomain: config.HUB_JOBS_DOMAIN,
  sshHost: config.HUB_JOBS_SSH_HOST,
  // Read when a view is made: the all-in-one hub learns its port at listen (PORT=0).
  get publicUrl() {
    return config.publicUrl;
  },
});

const secs = (from: Date, to: Date): number => Math.max(0, Math.round((to.getTime() - from.getTime()) / 100) / 10);

/**
 * Spec 2.2: secret names with null values, never the values; URLs only when exposed / ssh enabled.
 * `timeoutSeconds` of the spec is answered as `timeout`; attempts and ssh stay internal (decision 0620).
 * `startedAt` / `finishedAt` are left out until they happen, and owner and a named (user) initiator
 * carry their avatar, as on the public hub (decision 0630).
 */
export function toJobView(j: JobEntity, s: ViewSettings): JobView {
  const spec = j.spec;
  const now = new Date();
  const end = j.finishedAt ?? now;
  const view: JobView = {
    type: 'job',
    id: j.id,
    createdAt: j.createdAt.toISOString(),
    ...(j.startedAt ? { startedAt: j.startedAt.toISOString() } : {}),
    ...(j.finishedAt ? { finishedAt: j.finishedAt.toISOString() } : {}),
    owner: { id: j.owner.id, name: j.owner.name, type: j.owner.type, avatarUrl: avatarUrl(s.publicUrl, j.owner.name) },
    createdBy: { id: j.createdBy.id, name: j.createdBy.name },
    initiator: j.initiator.name
      ? { ...j.initiator, avatarUrl: avatarUrl(s.publicUrl, j.initiator.name) }
      : { type: j.initiator.type, id: j.initiator.id },
    environment: spec.environment ?? {},
    flavor: spec.flavor,
    retry:
      j.failureCount > 0 && j.failureCount < j.attempts
        ? j.failureCount
        : Math.max(0, Math.min(j.failureCount, j.attempts - 1)),
    labels: j.labels,
    durations: {
      schedulingSecs: secs(j.createdAt, j.startedAt ?? end),
      ...(j.startedAt ? { runningSecs: secs(j.startedAt, end) } : {}),
      totalSecs: secs(j.createdAt, end),
    },
    status: { stage: j.stage, message: j.message, failureCount: j.failureCount },
  };
  if (spec.dockerImage !== undefined) view.dockerImage = spec.dockerImage;
  if (spec.spaceId !== undefined) view.spaceId = spec.spaceId;
  if (spec.command) view.command = spec.command;
  if (spec.arguments) view.arguments = spec.arguments;
  if (spec.arch) view.arch = spec.arch;
  if (spec.timeoutSeconds) view.timeout = spec.timeoutSeconds;
  if (spec.volumes) view.volumes = spec.volumes;
  if (spec.resourceGroupId) view.resourceGroupId = spec.resourceGroupId;
  const secretNames = Object.keys(j.secretValues);
  if (secretNames.length > 0) view.secrets = Object.fromEntries(secretNames.map((k) => [k, null]));
  if (spec.expose) {
    view.expose = spec.expose;
    view.status.exposeUrls = spec.expose.ports.map((p) => `https://${j.id}--${p}.${s.jobsDomain}`);
  }
  if (spec.ssh?.enabled) view.status.sshUrl = `ssh://${j.id}@${s.sshHost}`;
  return view;
}
