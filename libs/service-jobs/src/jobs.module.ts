import { type DynamicModule, Module } from '@nestjs/common';
import { OutboxModule } from '@hub/messaging';
import { persistenceOptions, ServicePersistenceModule, type ServicePersistenceOptions } from '@hub/persistence';
import { type JobsConfig } from './jobs.config';
import { JOBS_ENTITIES } from './jobs.entities';
import { JOBS_CONFIG, JOBS_DS, JOBS_SECRETS } from './jobs.tokens';
import { JobStore } from './jobs/job-store';
import { JobEndpointHandler } from './jobs/job-endpoint.handler';
import { JobsHandler } from './jobs/jobs.handler';
import { JobSpecUseCase } from './jobs/job-spec.use-case';
import { JobsUseCases } from './jobs/jobs.use-cases';
import { NamespaceResolver } from './jobs/namespace-resolver';
import { ResourceGroupCheck } from './jobs/resource-group-check';
import { JobLogs } from './logs/job-logs';
import { jobsMigrations } from './migrations';
import { JOB_RUNNER } from './runner/job-runner';
import { JobSupervisor } from './runner/job-supervisor';
import { JobSweeper } from './runner/job-sweeper';
import { jobRunnerFor } from './runner/job-runner.factory';
import { ScheduledJobsHandler } from './scheduled/scheduled-jobs.handler';
import { ScheduledJobsTicker } from './scheduled/scheduled-jobs.ticker';
import { ScheduledJobsUseCases } from './scheduled/scheduled-jobs.use-cases';

export const JOBS_SCHEMA = 'jobs';

export function jobsPersistence(config: JobsConfig): ServicePersistenceOptions {
  return persistenceOptions(
    { name: JOBS_DS, schema: JOBS_SCHEMA, entities: JOBS_ENTITIES, migrations: jobsMigrations(config.secretBox()) },
    config,
  );
}

/** The jobs launcher: jobs, their runs on a runner, their logs. */
@Module({})
export class JobsModule {
  static forRoot(config: JobsConfig): DynamicModule {
    const secrets = config.secretBox();
    return {
      module: JobsModule,
      imports: [
        ServicePersistenceModule.forService(jobsPersistence(config)),
        OutboxModule.forService({ dataSource: JOBS_DS, schema: JOBS_SCHEMA }),
      ],
      controllers: [JobsHandler, ScheduledJobsHandler, JobEndpointHandler],
      providers: [
        { provide: JOBS_CONFIG, useValue: config },
        { provide: JOBS_SECRETS, useValue: secrets },
        { provide: JOB_RUNNER, useFactory: async () => jobRunnerFor(config) },
        JobStore,
        JobLogs,
        JobSupervisor,
        JobSweeper,
        JobsUseCases,
        JobSpecUseCase,
        NamespaceResolver,
        ResourceGroupCheck,
        ScheduledJobsUseCases,
        ScheduledJobsTicker,
      ],
    };
  }
}
