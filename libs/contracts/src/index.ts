export * from './enums';
export * from './errors';
export * from './names';
export * from './bus';
export * from './credentials';
export * from './organizations';
export * from './admin';
export * from './validation';
