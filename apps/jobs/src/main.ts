import 'reflect-metadata';
import { runService } from '@hub/observability';
import { JobsConfig, JobsModule, jobsPersistence } from '@hub/service-jobs';

runService({
  name: 'jobs',
  config: JobsConfig,
  module: (config) => JobsModule.forRoot(config),
  persistence: jobsPersistence,
}).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
