import 'reflect-metadata';
import { runService } from '@hub/observability';
import { assertDistributedJobsRunner, JobsConfig, JobsModule, jobsPersistence } from '@hub/service-jobs';

runService({
  name: 'jobs',
  config: JobsConfig,
  module: (config) => {
    // Without a container engine the distributed service runs jobs on its machine only when told to (decision 0621).
    assertDistributedJobsRunner(config);
    return JobsModule.forRoot(config);
  },
  persistence: jobsPersistence,
}).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
