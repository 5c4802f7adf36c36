import { type DynamicModule, Module } from '@nestjs/common';
import { OutboxModule } from '@hub/messaging';
import { persistenceOptions, ServicePersistenceModule, type ServicePersistenceOptions } from '@hub/persistence';
import { type JobsConfig } from './jobs.config';
import { JOBS_ENTITIES } from './jobs.entities';
import { JOBS_CONFIG, JOBS_DS, JOBS_SECRETS } from './jobs.di';
import { RegistryPolicy } from './jobs/registry-policy';
import { JobWriteBatches } from './jobs/job-write-batches';
import { JobsMetrics } from './jobs/jobs-metrics';
import { CancelJobUseCase } from './jobs/cancel-job.use-case';
import { CreateJobUseCase } from './jobs/create-job.use-case';
import { DuplicateJobUseCase } from './jobs/duplicate-job.use-case';
import { GetJobEndpointUseCase } from './jobs/get-job-endpoint.use-case';
import { GetJobMetricsUseCase } from './jobs/get-job-metrics.use-case';
import { GetJobSpecUseCase } from './jobs/get-job-spec.use-case';
import { GetJobUseCase } from './jobs/get-job.use-case';
import { ListJobsUseCase } from './jobs/list-jobs.use-case';
import { ReadJobLogsUseCase } from './jobs/read-job-logs.use-case';
import { UpdateJobLabelsUseCase } from './jobs/update-job-labels.use-case';
import { NamespaceResolver } from './jobs/namespace-resolver';
import { ResourceGroupCheck } from './jobs/resource-group-check';
import { JobLogs } from './logs/job-logs';
import { jobsMigrations } from './migrations';
import { JOB_RUNNER } from './runner/job-runner';
import { JobSupervisor } from './runner/job-supervisor';
import { JobRuns } from './jobs/job-runs';
import { FinishedJobsRetention } from './jobs/finished-jobs-retention';
import { JobSweeper } from './runner/job-sweeper';
import { jobRunnerFor, type RunnerContext } from './runner/job-runner.factory';
import { ScheduledJobsTicker } from './scheduled/scheduled-jobs.ticker';
import { CreateScheduledJobUseCase } from './scheduled/create-scheduled-job.use-case';
import { DeleteScheduledJobUseCase } from './scheduled/delete-scheduled-job.use-case';
import { FireScheduledJobUseCase } from './scheduled/fire-scheduled-job.use-case';
import { GetScheduledJobUseCase } from './scheduled/get-scheduled-job.use-case';
import { ListScheduledJobsUseCase } from './scheduled/list-scheduled-jobs.use-case';
import { RunScheduledJobUseCase } from './scheduled/run-scheduled-job.use-case';
import { ResumeScheduledJobUseCase, SuspendScheduledJobUseCase } from './scheduled/suspend-scheduled-job.use-case';
import { UpdateScheduleUseCase } from './scheduled/update-schedule.use-case';
import { UpdateScheduledJobLabelsUseCase } from './scheduled/update-scheduled-job-labels.use-case';

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
  /** `distributed`: the jobs app on its own (not the all-in-one hub): without an engine it needs HUB_JOBS_ENGINE=host (decision 0621). */
  static forRoot(config: JobsConfig, context: RunnerContext = {}): DynamicModule {
    const secrets = config.secretBox();
    return {
      module: JobsModule,
      imports: [
        ServicePersistenceModule.forService(jobsPersistence(config)),
        OutboxModule.forService({ dataSource: JOBS_DS, schema: JOBS_SCHEMA }),
      ],
      providers: [
        { provide: JOBS_CONFIG, useValue: config },
        { provide: JOBS_SECRETS, useValue: secrets },
        { provide: RegistryPolicy, useValue: config.registryPolicy() },
        { provide: JOB_RUNNER, useFactory: () => jobRunnerFor(config, context) },
        JobWriteBatches,
        JobsMetrics,
        JobLogs,
        JobSupervisor,
        { provide: JobRuns, useExisting: JobSupervisor },
        JobSweeper,
        FinishedJobsRetention,
        NamespaceResolver,
        ResourceGroupCheck,
        CreateJobUseCase,
        GetJobUseCase,
        ListJobsUseCase,
        CancelJobUseCase,
        DuplicateJobUseCase,
        UpdateJobLabelsUseCase,
        GetJobMetricsUseCase,
        ReadJobLogsUseCase,
        GetJobSpecUseCase,
        GetJobEndpointUseCase,
        CreateScheduledJobUseCase,
        ListScheduledJobsUseCase,
        GetScheduledJobUseCase,
        DeleteScheduledJobUseCase,
        SuspendScheduledJobUseCase,
        ResumeScheduledJobUseCase,
        UpdateScheduleUseCase,
        UpdateScheduledJobLabelsUseCase,
        RunScheduledJobUseCase,
        FireScheduledJobUseCase,
        ScheduledJobsTicker,
      ],
    };
  }
}
