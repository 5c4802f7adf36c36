export * from './access';
export * from './nats-permissions';
