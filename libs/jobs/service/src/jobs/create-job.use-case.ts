import { Inject, Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type CreateJobRpc, JobsRpc, type JobView } from '@hub/jobs-contract';
import { type SecretBox } from '@hub/config';
import { newObjectId } from '@hub/persistence';
import { type JobsConfig } from '../jobs.config';
import { JOBS_CONFIG, JOBS_SECRETS } from '../jobs.di';
import { jobAuditEvent } from './job-events';
import { JobEntity, type JobOwner } from './job.entity';
import { JobRuns } from './job-runs';
import { JobWriteBatches } from './job-write-batches';
import { toJobView, viewSettings } from './job.view';
import {
  FlavorNotAvailableError,
  ImageRegistryRefusedError,
  JobCommandRequiredError,
  JobImageSourceError,
  PublicPortsNotExposedError,
} from './jobs.errors';
import { NamespaceResolver } from './namespace-resolver';
import { RegistryPolicy } from './registry-policy';
import { ResourceGroupCheck } from './resource-group-check';
import { RpcHandler } from '@hub/messaging';

/** A new job, stored SCHEDULING, then told to JobRuns; duplicates and scheduled firings come here too. */
@Injectable()
export class CreateJobUseCase {
  constructor(
    @Inject(JOBS_CONFIG) private readonly config: JobsConfig,
    @Inject(JOBS_SECRETS) private readonly secrets: SecretBox,
    private readonly writes: JobWriteBatches,
    private readonly runs: JobRuns,
    private readonly namespaces: NamespaceResolver,
    private readonly resourceGroups: ResourceGroupCheck,
    private readonly registries: RegistryPolicy,
  ) {}

  /** `sealedSecrets`: values already sealed (a duplicate or a scheduled firing); otherwise the spec's are sealed here. */
  @RpcHandler(JobsRpc.Create)
  async execute(dto: CreateJobRpc, ctx: RequestContext, sealedSecrets?: Record<string, string>): Promise<JobView> {
    const { secrets, ...spec } = dto.spec;
    if (!spec.dockerImage === !spec.spaceId) throw new JobImageSourceError();
    if (!spec.command?.length) throw new JobCommandRequiredError();
    // Decided at every run (a duplicate, a scheduled firing): the operator may have changed the list.
    const registryRefused = spec.dockerImage ? await this.registries.refusal(spec.dockerImage) : null;
    if (registryRefused) throw new ImageRegistryRefusedError(registryRefused);
    if (spec.expose?.portsPublic?.some((p) => !spec.expose?.ports.includes(p))) throw new PublicPortsNotExposedError();
    const refused = this.runs.refusal(spec.flavor);
    if (refused) throw new FlavorNotAvailableError(refused);
    const owner: JobOwner = dto.owner ?? (await this.namespaces.resolve(dto.namespace, ctx));
    await this.resourceGroups.assertOwnedBy(owner, spec.resourceGroupId, 'resourceGroupId', ctx);
    const now = new Date();
    const job = Object.assign(new JobEntity(), {
      id: newObjectId(now),
      namespace: owner.name,
      owner,
      createdBy: dto.createdBy ?? { id: owner.id, name: owner.name },
      initiator: dto.initiator,
      spec: { ...spec, environment: spec.environment ?? {} },
      secretValues: sealedSecrets ?? this.secrets.sealMap(secrets ?? {}),
      extraEnv: dto.environment ?? {},
      labels: spec.labels ?? {},
      stage: 'SCHEDULING',
      message: null,
      failureCount: 0,
      attempts: spec.attempts ?? 1,
      runner: null,
      runHandle: null,
      heartbeatAt: now,
      metrics: null,
      createdAt: now,
      updatedAt: now,
      startedAt: null,
      finishedAt: null,
    } satisfies JobEntity);
    await this.writes.insert(
      job,
      [jobAuditEvent(ctx, job, 'jobs.create', `Job ${job.id} created`, { initiator: job.initiator })],
      this.config.HUB_JOBS_MAX_ACTIVE_PER_NAMESPACE,
    );
    this.runs.created(job);
    return toJobView(job, viewSettings(this.config));
  }
}
