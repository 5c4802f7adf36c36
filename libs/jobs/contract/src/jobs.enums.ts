import { type JobStage } from '../enums';

export { JOB_ARCHES, JOB_FLAVORS, JOB_STAGES, JOB_VOLUME_TYPES, type JobFlavor, type JobStage } from '../enums';

export const TERMINAL_JOB_STAGES: ReadonlySet<JobStage> = new Set(['COMPLETED', 'ERROR', 'CANCELED', 'DELETED']);
export const JOB_INITIATOR_TYPES = ['user', 'webhook', 'scheduled-job'] as const;
