import { type DynamicModule, type Type } from '@nestjs/common';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { type FastifyInstance } from 'fastify';
import { createFastifyApp } from '@hub/observability';
import { serveConsole } from '../console/serve-console';
import { type GatewayConfig } from './gateway.config';
import { limitBodyTime } from './http/edge-guards';
import { answerClientError, answerFrameworkError, MAX_PARAM_LENGTH } from './http/edge-errors';
import { registerJsonParser } from './http/json-body';
import { assignRequestId, requestIdFor } from './http/request-context';
import { setSecurityHeaders } from './http/security-headers';
import { traceRequests } from './http/request-span';
import { refuseBadText } from './http/text-guard';
import { serveAsyncApi } from './openapi/asyncapi';
import { serveOpenApi } from './openapi/openapi';

/**
 * Creates (not yet listening) the Fastify-based Nest app for a root module that includes
 * GatewayModule: request ids, body limit and timeout, connection cap, trusted proxies, error
 * shape (ours even for errors Fastify or Node raise first), security headers, metrics, OpenAPI and AsyncAPI.
 * Controller routes run through Nest's own router pipeline (the edge guard, pipe and filter are
 * APP_* providers of GatewayCoreModule).
 */
export async function createGatewayApp(
  root: Type | DynamicModule,
  config: GatewayConfig,
  name = 'gateway',
): Promise<NestFastifyApplication> {
  const app = await createFastifyApp(root, {
    name,
    logLevel: config.LOG_LEVEL,
    bodyLimit: config.HUB_BODY_LIMIT,
    maxConnections: config.HUB_MAX_CONNECTIONS,
    jsonParser: registerJsonParser,
    fastify: {
      genReqId: requestIdFor,
      // proxy-addr semantics: X-Forwarded-For is read only when the peer is one of these.
      trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
      routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
      frameworkErrors: answerFrameworkError,
      clientErrorHandler: answerClientError,
      // Backstop for slow headers; slow bodies get the earlier, clearer 408 of limitBodyTime.
      requestTimeout: config.HUB_BODY_TIMEOUT_MS + 5000,
    },
  });
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  traceRequests(fastify);
  fastify.addHook('onRequest', assignRequestId);
  fastify.addHook('onRequest', setSecurityHeaders);
  limitBodyTime(fastify, config.HUB_BODY_TIMEOUT_MS);
  fastify.addHook('preValidation', refuseBadText);
  serveOpenApi(app);
  serveAsyncApi(app);
  await serveConsole(app, config);
  return app;
}
