import { Module } from '@nestjs/common';
import { JobExposeProxy } from './job-expose.proxy';
import { JobLogFeeds } from './job-log-feeds';
import { JobNamespaces } from './job-namespaces';
import { JobStreamsController } from './job-streams.controller';
import { JobsController } from './jobs.controller';
import { ScheduledJobsController } from './scheduled-jobs.controller';

/** `/api/jobs/…`: the Jobs API in front of the jobs service. */
@Module({
  controllers: [JobsController, JobStreamsController, ScheduledJobsController],
  providers: [JobNamespaces, JobExposeProxy, JobLogFeeds],
})
export class JobsApiModule {}
