import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { LimitReachedError, type RequestContext } from '@hub/contracts';
import { type CreateScheduledJobRpc, ScheduledJobsRpc, type ScheduledJobView } from '@hub/jobs-contract';
import { type SecretBox } from '@hub/config';
import { Outbox, RpcHandler } from '@hub/messaging';
import { newObjectId } from '@hub/persistence';
import { type JobsConfig } from '../jobs.config';
import { JOBS_CONFIG, JOBS_DS, JOBS_SECRETS } from '../jobs.di';
import { ImageRegistryRefusedError, JobCommandRequiredError, JobImageSourceError } from '../jobs/jobs.errors';
import { RegistryPolicy } from '../jobs/registry-policy';
import { ResourceGroupCheck } from '../jobs/resource-group-check';
import { firstRunChecked } from './cron';
import { ScheduledJobEntity } from './scheduled-job.entity';
import { recordScheduledJobAudit } from './scheduled-job-audit';
import { ScheduledJobsStore } from './scheduled-jobs.store';
import { cronChecked, toScheduledJobView } from './scheduled-job.view';

@Injectable()
export class CreateScheduledJobUseCase {
  constructor(
    @Inject(JOBS_CONFIG) private readonly config: JobsConfig,
    @Inject(JOBS_SECRETS) private readonly secrets: SecretBox,
    @InjectDataSource(JOBS_DS) private readonly ds: DataSource,
    @Inject(Outbox) private readonly outbox: Outbox,
    private readonly resourceGroups: ResourceGroupCheck,
    private readonly registries: RegistryPolicy,
  ) {}

  @RpcHandler(ScheduledJobsRpc.Create)
  async execute(dto: CreateScheduledJobRpc, ctx: RequestContext): Promise<ScheduledJobView> {
    const { secrets, ...spec } = dto.jobSpec;
    if (!spec.dockerImage === !spec.spaceId) throw new JobImageSourceError('jobSpec.');
    if (!spec.command?.length) throw new JobCommandRequiredError('jobSpec.');
    const registryRefused = spec.dockerImage ? await this.registries.refusal(spec.dockerImage) : null;
    if (registryRefused) throw new ImageRegistryRefusedError(registryRefused, 'jobSpec.');
    await this.resourceGroups.assertOwnedBy(dto.owner, spec.resourceGroupId, 'jobSpec.resourceGroupId', ctx);
    const now = new Date();
    const s = Object.assign(new ScheduledJobEntity(), {
      id: newObjectId(now),
      namespace: dto.owner.name,
      owner: dto.owner,
      createdBy: dto.createdBy,
      schedule: dto.schedule,
      suspend: dto.suspend ?? false,
      concurrency: dto.concurrency ?? false,
      jobSpec: { ...spec, environment: spec.environment ?? {} },
      secretValues: this.secrets.sealMap(secrets ?? {}),
      lastJobId: null,
      createdAt: now,
      updatedAt: now,
      nextRunAt: cronChecked(() =>
        firstRunChecked(dto.schedule, now, this.config.HUB_SCHEDULED_JOBS_MIN_INTERVAL_SECONDS),
      ),
    } satisfies ScheduledJobEntity);
    const max = this.config.HUB_SCHEDULED_JOBS_MAX_PER_NAMESPACE;
    // The count and the insert in one transaction, the namespace locked: two creates at once cannot both pass.
    await this.outbox.transaction(async (m) => {
      const n = await ScheduledJobsStore.lockAndCount(m, s.namespace);
      if (n >= max)
        throw new LimitReachedError(
          `${s.namespace} has ${n} scheduled jobs`,
          'HUB_SCHEDULED_JOBS_MAX_PER_NAMESPACE',
          max,
          'delete one to create another',
        );
      await ScheduledJobsStore.insert(m, s);
      await recordScheduledJobAudit(this.outbox, m, ctx, s, 'scheduled_job.create');
    });
    return toScheduledJobView(s);
  }
}
