export * from './repo.enums';
export * from './jobs.enums';
export * from './orgs.enums';
export * from './audit.enums';
