export * from './asyncapi-document';
export * from './event-docs';
export * from './schema-compat';
export * from './payload-types';
