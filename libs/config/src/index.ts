export * from './load-config';
export * from './hub-config';
