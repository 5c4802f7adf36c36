export * from './create-job.rpc';
