import { type DynamicModule, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import { createPinoLogger, PinoNestLogger } from '@hub/config';
import { instrumentHttp } from './observability.module';

export interface FastifyAppOptions {
  /** App name in logs and metrics. */
  name: string;
  logLevel: string;
  bodyLimit?: number;
}

/**
 * The router answers a malformed URL (400) or an over-long path segment (414) before Nest and its
 * error filter see the request; without this its own body (`{error, code, message, statusCode}`)
 * broke the one error shape `{"error": …}`, as the OpenAPI-checked fuzz suite found.
 */
function routerError(err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  const message = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path segment is too long' : 'The URL is not valid';
  void reply.code(err.statusCode ?? 400).header('X-Error-Message', message).send({ error: message });
}

/** A Nest app on Fastify with pino logs, shutdown hooks and HTTP metrics; not yet listening. */
export async function createFastifyApp(root: Type | DynamicModule, o: FastifyAppOptions): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({ bodyLimit: o.bodyLimit ?? 1024 * 1024, logger: false, frameworkErrors: routerError });
  // abortOnError false: a failed start throws (and is reported) instead of process.exit(1).
  const app = await NestFactory.create<NestFastifyApplication>(root, adapter, {
    abortOnError: false,
    logger: new PinoNestLogger(createPinoLogger(o.logLevel, o.name)),
  });
  app.enableShutdownHooks();
  instrumentHttp(app);
  return app;
}
