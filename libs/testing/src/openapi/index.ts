export * from './response-validator';
export * from './hub-openapi';
