import { type DynamicModule, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { createPinoLogger, PinoNestLogger } from '@hub/config';
import { instrumentHttp } from './observability.module';

export interface FastifyAppOptions {
  /** App name in logs and metrics. */
  name: string;
  logLevel: string;
  bodyLimit?: number;
  /** Extra Fastify options of the public edge (trusted proxies, framework error shape, timeouts). */
  fastify?: Omit<FastifyServerOptions, 'logger' | 'bodyLimit'>;
  /** Registers the app's own application/json parser (Nest's default parser is then not registered). */
  jsonParser?: (fastify: FastifyInstance) => void;
  /** Most simultaneous connections; past it new ones are refused (Node closes them at once). */
  maxConnections?: number;
}

/**
 * The router answers a malformed URL (400) or an over-long path segment (414) before Nest and its
 * error filter see the request; without this its own body (`{error, code, message, statusCode}`)
 * broke the one error shape `{"error": …}`, as the OpenAPI-checked fuzz suite found.
 */
function routerError(err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  const message = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path segment is too long' : 'The URL is not valid';
  void reply
    .code(err.statusCode ?? 400)
    .header('X-Error-Message', message)
    .send({ error: message });
}

/** A Nest app on Fastify with pino logs, shutdown hooks and HTTP metrics; not yet listening. */
export async function createFastifyApp(
  root: Type | DynamicModule,
  o: FastifyAppOptions,
): Promise<NestFastifyApplication> {
  // The gateway passes its own frameworkErrors (with X-Request-Id); services keep routerError.
  // skipMiddie: no app has Nest middleware (request ids, security headers and metrics are Fastify
  // hooks), and @fastify/middie would otherwise run its chain on every request (decision 0300).
  const adapter = new FastifyAdapter({
    frameworkErrors: routerError,
    ...o.fastify,
    bodyLimit: o.bodyLimit ?? 1024 * 1024,
    logger: false,
    skipMiddie: true,
  });
  // abortOnError false: a failed start throws (and is reported) instead of process.exit(1).
  const app = await NestFactory.create<NestFastifyApplication>(root, adapter, {
    abortOnError: false,
    bodyParser: !o.jsonParser,
    logger: new PinoNestLogger(createPinoLogger(o.logLevel, o.name)),
  });
  o.jsonParser?.(app.getHttpAdapter().getInstance() as FastifyInstance);
  if (o.maxConnections !== undefined)
    (app.getHttpServer() as { maxConnections: number }).maxConnections = o.maxConnections;
  app.enableShutdownHooks();
  instrumentHttp(app);
  return app;
}
