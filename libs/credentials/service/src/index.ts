export * from './credentials.module';
export * from './credentials.config';
export * from './credentials.di';
