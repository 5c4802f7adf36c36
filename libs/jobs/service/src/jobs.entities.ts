import { JobEntity } from './jobs/job.entity';
import { ScheduledJobEntity } from './scheduled/scheduled-job.entity';

export { JobEntity, ScheduledJobEntity };
export const JOBS_ENTITIES = [JobEntity, ScheduledJobEntity];
