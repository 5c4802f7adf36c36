import { type INestApplication } from '@nestjs/common';
import { type FastifyInstance } from 'fastify';
import { buildAsyncApiDocument } from '@hub/bus-access';

/**
 * `/.well-known/asyncapi.json`: the bus contract for subscribers (decision 0700), beside the
 * OpenAPI document. Public like it: it names subjects and shapes, never data.
 */
export function serveAsyncApi(app: INestApplication): void {
  const body = JSON.stringify(buildAsyncApiDocument(), null, 2);
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  fastify.get('/.well-known/asyncapi.json', (_req, reply) => {
    void reply.header('Content-Type', 'application/json; charset=utf-8').send(body);
  });
}
