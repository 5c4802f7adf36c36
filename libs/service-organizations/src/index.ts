export * from './organizations.module';
export * from './organizations.config';
