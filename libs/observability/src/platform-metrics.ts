import { Inject, Injectable, type OnApplicationBootstrap, Optional } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { EventBus } from '@hub/messaging';
import { READINESS_CHECKS, type ReadinessCheck } from './health.controller';
import { HttpMetrics } from './http-metrics';

/**
 * What every app exports besides HTTP and process metrics, read at scrape time (never stale):
 * its database pools (the readiness checks' pools, labelled by check name) and the lag of its
 * durable bus consumers. The alert rules in docs/operating/ page on both.
 */
@Injectable()
export class PlatformMetrics implements OnApplicationBootstrap {
  constructor(
    private readonly metrics: HttpMetrics,
    @Optional() @Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[] = [],
    @Optional() private readonly bus?: EventBus,
  ) {}

  onApplicationBootstrap(): void {
    const pools = this.checks.filter((c) => c.pool);
    const registers = [this.metrics.registry];
    new Gauge({
      name: 'hub_db_pool_connections',
      help: 'Database pool connections: active (lent to a query) or idle',
      labelNames: ['pool', 'state'],
      registers,
      collect() {
        for (const { name, pool } of pools) {
          if (!pool) continue;
          this.set({ pool: name, state: 'active' }, pool.totalCount - pool.idleCount);
          this.set({ pool: name, state: 'idle' }, pool.idleCount);
        }
      },
    });
    new Gauge({
      name: 'hub_db_pool_waiting',
      help: 'Queries waiting for a free connection of the database pool',
      labelNames: ['pool'],
      registers,
      collect() {
        for (const { name, pool } of pools) if (pool) this.set({ pool: name }, pool.waitingCount);
      },
    });
    new Gauge({
      name: 'hub_db_pool_max',
      help: 'Most connections the database pool opens',
      labelNames: ['pool'],
      registers,
      collect() {
        // pg's default when the DataSource sets no pool size.
        for (const { name, pool } of pools) if (pool) this.set({ pool: name }, pool.options.max ?? 10);
      },
    });
    const bus = this.bus;
    if (!bus) return;
    new Gauge({
      name: 'hub_bus_consumer_pending',
      help: 'Events a durable bus consumer of this app has not acknowledged yet (waiting or in flight)',
      labelNames: ['stream', 'consumer'],
      registers,
      async collect() {
        this.reset();
        for (const lag of await bus.consumerLag()) this.set({ stream: lag.stream, consumer: lag.durable }, lag.pending);
      },
    });
  }
}
