export const JOBS_DS = 'jobs';
export const JOBS_CONFIG = Symbol('JOBS_CONFIG');
/** The SecretBox sealing job secrets at rest (HUB_SECRET_KEY, purpose `hub-job-secrets`). */
export const JOBS_SECRETS = Symbol('JOBS_SECRETS');
