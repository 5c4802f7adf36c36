export * from './hub-bus';
export * from './bus-names';
export * from './consume-options';
export * from './dead-letter';
export * from './event-definition';
export * from './idempotency';
export * from './payload-validator';
export * from './generated/catalogue';
