import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { createServer, type Server } from 'node:http';
import { HttpMetrics } from './http-metrics';
import { METRICS_ACCESS, type MetricsAccess } from './metrics-access';

/** The separate /metrics listener of HUB_METRICS_PORT: nothing else is served there. */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private server: Server | null = null;

  constructor(
    private readonly metrics: HttpMetrics,
    @Inject(METRICS_ACCESS) private readonly access: MetricsAccess,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.access.port;
    if (port === undefined) return;
    this.server = createServer((req, res) => {
      if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
        res
          .writeHead(404, { 'Content-Type': 'application/json; charset=utf-8', 'X-Content-Type-Options': 'nosniff' })
          .end('{"error":"Only /metrics is served on this port"}');
        return;
      }
      this.metrics.registry.metrics().then(
        (text) =>
          res
            .writeHead(200, {
              'Content-Type': 'text/plain; version=0.0.4; charset=utf-8',
              'X-Content-Type-Options': 'nosniff',
            })
            .end(text),
        () => res.writeHead(500).end(),
      );
    });
    const server = this.server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.access.host, () => resolve());
    });
    new Logger('MetricsServer').log(`metrics on ${this.access.host}:${port}/metrics`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
