import { Controller, Get, Header, Headers, HttpException, Inject, SetMetadata } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { createHash, timingSafeEqual } from 'node:crypto';
import { HttpMetrics } from './http-metrics';
import { METRICS_ACCESS, type MetricsAccess } from './metrics-access';

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: HttpMetrics,
    @Inject(METRICS_ACCESS) private readonly access: MetricsAccess,
  ) {}

  /** Prometheus text format, if this port serves it (see metricsAccess). */
  @Get()
  // Not a user route: the gateway's auth guard lets it through and the check is here.
  @SetMetadata('hub:public', true)
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(@Headers('authorization') authorization?: string): Promise<string> {
    if (!this.access.onMainPort) {
      throw new HttpException('Metrics are not served on this port (see HUB_METRICS_PORT and HUB_METRICS_TOKEN)', 404);
    }
    if (this.access.token) {
      const given = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
      if (!given || !timingSafeEqual(digest(given), digest(this.access.token))) {
        throw new HttpException('/metrics needs the Bearer HUB_METRICS_TOKEN', 401);
      }
    }
    return this.metrics.registry.metrics();
  }
}
