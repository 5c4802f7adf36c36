import 'reflect-metadata';
import { runService } from '@hub/observability';
import { JobsConfig, JobsModule, jobsPersistence } from '@hub/jobs-service';

runService({
  name: 'jobs',
  config: JobsConfig,
  // Without a container engine the distributed service runs jobs on its machine only when told to (decision 0621).
  module: (config) => JobsModule.forRoot(config, { distributed: true }),
  persistence: jobsPersistence,
}).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
