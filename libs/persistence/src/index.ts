export * from './object-id';
export * from './data-source.factory';
export * from './service-persistence.module';
export * from './prepared-query';
export * from './vacuum';
export * from './embedded-postgres';
export * from './transaction-lock';
export * from './unique-violation';
