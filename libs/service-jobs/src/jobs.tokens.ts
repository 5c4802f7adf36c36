export const JOBS_DS = 'jobs';
export const JOBS_CONFIG = Symbol('JOBS_CONFIG');
