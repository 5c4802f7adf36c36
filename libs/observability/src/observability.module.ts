import { type DynamicModule, type INestApplication, type InjectionToken, Module } from '@nestjs/common';
import { type FastifyInstance } from 'fastify';
import { HealthController, READINESS_CHECKS, type ReadinessCheck } from './health.controller';
import { HttpMetrics } from './http-metrics';
import { METRICS_ACCESS, type MetricsAccess } from './metrics-access';
import { MetricsController } from './metrics.controller';
import { MetricsServer } from './metrics-server';
import { PlatformMetrics } from './platform-metrics';

export interface ReadinessChecksFactory {
  inject: InjectionToken[];
  useFactory: (...deps: never[]) => ReadinessCheck[];
}

/**
 * /health/live, /health/ready and /metrics for one app (where metrics are served: metricsAccess). `checks` builds the readiness checks
 * from what the app has (DataSources, the NATS connection).
 */
@Module({})
export class ObservabilityModule {
  static forApp(app: string, checks: ReadinessChecksFactory, metrics: MetricsAccess): DynamicModule {
    return {
      module: ObservabilityModule,
      controllers: [HealthController, MetricsController],
      providers: [
        { provide: HttpMetrics, useValue: new HttpMetrics(app) },
        { provide: METRICS_ACCESS, useValue: metrics },
        MetricsServer,
        PlatformMetrics,
        { provide: READINESS_CHECKS, inject: checks.inject, useFactory: checks.useFactory },
      ],
      exports: [HttpMetrics],
    };
  }
}

/** Counts every answered request by method, route pattern and status. */
export function instrumentHttp(app: INestApplication): void {
  const metrics = app.get(HttpMetrics);
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  fastify.addHook('onResponse', (req, reply, done) => {
    metrics.observe(req.method, req.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
