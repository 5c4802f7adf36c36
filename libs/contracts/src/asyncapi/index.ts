export * from './class-schema';
export * from './merge-schemas';
