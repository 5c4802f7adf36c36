export * from './gateway.module';
export * from './gateway.config';
export * from './bootstrap/create-gateway-app';
export * from './bootstrap/openapi';
