export * from './gateway.module';
export { GatewayConfig, createGatewayApp, buildOpenApiDocument, serveOpenApi, toOpenApi31 } from './core';
export { installRequestErrorBackstop } from './core/http/request-error-backstop';
