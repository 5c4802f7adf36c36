export * from './access';
export * from './nats-permissions';
export * from './asyncapi';
