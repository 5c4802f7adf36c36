export * from './closed-schema';
export * from './http.views';
