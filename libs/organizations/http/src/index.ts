export * from './organizations-api.module';
