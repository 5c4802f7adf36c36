export * from './infra';
export * from './test-database';
