import { JobEntity } from './jobs/job.entity';

export { JobEntity };
export const JOBS_ENTITIES = [JobEntity];
