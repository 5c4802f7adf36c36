export * from './gateway.module';
export { GatewayConfig, createGatewayApp, buildOpenApiDocument, serveOpenApi, toOpenApi31 } from './core';
