import { type DynamicModule, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { createPinoLogger, PinoNestLogger } from '@hub/config';
import { instrumentHttp } from './observability.module';

export interface FastifyAppOptions {
  /** App name in logs and metrics. */
  name: string;
  logLevel: string;
  bodyLimit?: number;
}

/** A Nest app on Fastify with pino logs, shutdown hooks and HTTP metrics; not yet listening. */
export async function createFastifyApp(root: Type | DynamicModule, o: FastifyAppOptions): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({ bodyLimit: o.bodyLimit ?? 1024 * 1024, logger: false });
  // abortOnError false: a failed start throws (and is reported) instead of process.exit(1).
  const app = await NestFactory.create<NestFastifyApplication>(root, adapter, {
    abortOnError: false,
    logger: new PinoNestLogger(createPinoLogger(o.logLevel, o.name)),
  });
  app.enableShutdownHooks();
  instrumentHttp(app);
  return app;
}
