export * from './infra';
export * from './describe-with-infra';
export * from './test-database';
export * from './smtp-capture';
export * from './http-client';
export * from './hub-factory';
export * from './processes';
export * from './scenarios/credentials.scenarios';
