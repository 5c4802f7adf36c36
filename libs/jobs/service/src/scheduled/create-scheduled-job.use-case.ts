import { Inject, Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type CreateScheduledJobRpc, type ScheduledJobView } from '@hub/jobs-contract';
import { type SecretBox } from '@hub/config';
import { newObjectId } from '@hub/persistence';
import { type JobsConfig } from '../jobs.config';
import { JOBS_CONFIG, JOBS_SECRETS } from '../jobs.di';
import { ImageRegistryRefusedError, JobCommandRequiredError, JobImageSourceError } from '../jobs/jobs.errors';
import { RegistryPolicy } from '../jobs/registry-policy';
import { ResourceGroupCheck } from '../jobs/resource-group-check';
import { firstRunChecked } from './cron';
import { ScheduledJobEntity } from './scheduled-job.entity';
import { ScheduledJobStore } from './scheduled-job-store';
import { cronChecked, toScheduledJobView } from './scheduled-job.view';

@Injectable()
export class CreateScheduledJobUseCase {
  constructor(
    @Inject(JOBS_CONFIG) private readonly config: JobsConfig,
    @Inject(JOBS_SECRETS) private readonly secrets: SecretBox,
    private readonly store: ScheduledJobStore,
    private readonly resourceGroups: ResourceGroupCheck,
    private readonly registries: RegistryPolicy,
  ) {}

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
    await this.store.insert(s, this.config.HUB_SCHEDULED_JOBS_MAX_PER_NAMESPACE, ctx);
    return toScheduledJobView(s);
  }
}
