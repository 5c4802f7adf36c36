export const JOB_FLAVORS = [
  'cpu-basic',
  'cpu-upgrade',
  'cpu-performance',
  'cpu-xl',
  'sprx8',
  'zero-a10g',
  't4-small',
  't4-medium',
  'l4x1',
  'l4x4',
  'l40sx1',
  'l40sx4',
  'l40sx8',
  'a10g-small',
  'a10g-large',
  'a10g-largex2',
  'a10g-largex4',
  'a100-large',
  'a100x4',
  'a100x8',
  'h200',
  'h200x2',
  'h200x4',
  'h200x8',
  'rtx-pro-6000',
  'rtx-pro-6000x2',
  'rtx-pro-6000x4',
  'rtx-pro-6000x8',
  'inf2x6',
] as const;
export type JobFlavor = (typeof JOB_FLAVORS)[number];

/** Who may start a job (`initiator.type`). */
export const JOB_INITIATOR_TYPES = ['user', 'webhook', 'scheduled-job'] as const;

export const JOB_STAGES = ['COMPLETED', 'CANCELED', 'ERROR', 'DELETED', 'RUNNING', 'SCHEDULING'] as const;
export type JobStage = (typeof JOB_STAGES)[number];

export const JOB_CANCEL_REASONS = ['NO_CREDITS', 'NO_SUBSCRIPTION'] as const;

export const JOB_ARCHES = ['amd64', 'arm64'] as const;
export type JobArch = (typeof JOB_ARCHES)[number];

export const JOB_VOLUME_TYPES = ['bucket', 'model', 'dataset', 'space'] as const;
