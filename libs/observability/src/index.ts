export * from './http-metrics';
export * from './health.controller';
export * from './metrics.controller';
export * from './observability.module';
export * from './readiness';
export * from './create-fastify-app';
export * from './run-service';
export * from './metrics-access';
