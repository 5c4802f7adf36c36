export * from './jobs.module';
