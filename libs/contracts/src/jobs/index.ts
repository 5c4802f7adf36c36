export { TERMINAL_JOB_STAGES, JOB_INITIATOR_TYPES } from './jobs.enums';
export * from './string-map.validator';
export * from './create-job.dto';
export * from './jobs.views';
export * from './jobs-rpc.dto';
export * from './jobs.rpc';
export * from './job-hardware';
export * from './scheduled-jobs.dto';
export * from './job-spec.dto';
