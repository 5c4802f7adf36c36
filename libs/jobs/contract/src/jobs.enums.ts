import { type JobStage } from '@hub/contracts';

export {
  JOB_ARCHES,
  JOB_FLAVORS,
  JOB_INITIATOR_TYPES,
  JOB_STAGES,
  JOB_VOLUME_TYPES,
  type JobFlavor,
  type JobStage,
} from '@hub/contracts';

export const TERMINAL_JOB_STAGES: ReadonlySet<JobStage> = new Set(['COMPLETED', 'ERROR', 'CANCELED', 'DELETED']);
