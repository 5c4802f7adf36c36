export * from './credentials.module';
