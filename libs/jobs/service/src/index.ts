export * from './jobs.module';
export * from './jobs.config';
export * from './jobs.di';
