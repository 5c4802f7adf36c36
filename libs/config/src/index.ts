export * from './load-config';
export * from './hub-config';
export * from './logger';
export * from './secret-box';
export * from './ssrf-guard';
