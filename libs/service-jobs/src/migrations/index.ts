import { CreateJobs1764000100000 } from './1764000100000-create-jobs';
import { CreateScheduledJobs1764000200000 } from './1764000200000-create-scheduled-jobs';

/** In order. Never edit one that has landed; add a new one (style.md rule 7). */
export const JOBS_MIGRATIONS = [CreateJobs1764000100000, CreateScheduledJobs1764000200000];
