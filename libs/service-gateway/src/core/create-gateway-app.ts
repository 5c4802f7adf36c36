import { type DynamicModule, type Type } from '@nestjs/common';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { type FastifyInstance } from 'fastify';
import { createFastifyApp } from '@hub/observability';
import { type GatewayConfig } from './gateway.config';
import { assignRequestId } from './http/request-context';
import { serveOpenApi } from './openapi/openapi';

/**
 * Creates (not yet listening) the Fastify-based Nest app for a root module that includes
 * GatewayModule: request ids, body limit, error shape, metrics, OpenAPI.
 */
export async function createGatewayApp(root: Type | DynamicModule, config: GatewayConfig, name = 'gateway'): Promise<NestFastifyApplication> {
  const app = await createFastifyApp(root, { name, logLevel: config.LOG_LEVEL, bodyLimit: config.HUB_BODY_LIMIT });
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  fastify.addHook('onRequest', assignRequestId);
  serveOpenApi(app);
  return app;
}
