export * from './notifications.module';
export * from './notifications.config';
export * from './notifications.di';
