import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { DELIVERY_TRIGGERS } from '@hub/webhooks-contract';
import { HttpMetrics } from '@hub/observability';
import { WEBHOOKS_DS } from '../webhooks.di';
import { DeliveryQueueStore } from './delivery-queue.store';

/**
 * Delivery metrics on the app's /metrics registry (found at bootstrap, wherever the app's
 * observability module put it): outcomes, attempt latency, retries, suspensions, queue depth.
 */
@Injectable()
export class DeliveryMetrics implements OnApplicationBootstrap {
  readonly attempts = new Counter({
    name: 'hub_webhook_attempts_total',
    help: 'Delivery attempts by outcome',
    labelNames: ['outcome', 'trigger'],
    registers: [],
  });
  readonly latency = new Histogram({
    name: 'hub_webhook_attempt_duration_seconds',
    help: 'Attempt latency (request to answer)',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [],
  });
  readonly retries = new Counter({
    name: 'hub_webhook_retries_total',
    help: 'Failed attempts scheduled for a retry',
    registers: [],
  });
  readonly suspensions = new Counter({
    name: 'hub_webhook_suspensions_total',
    help: 'Webhooks suspended after failure',
    registers: [],
  });
  /** Read from the queue at scrape time (one small query), so it is never stale. */
  readonly depth: Gauge<'state'>;
  /** How long the oldest due delivery has waited, from the same query. */
  readonly oldestDue: Gauge;

  constructor(
    private readonly moduleRef: ModuleRef,
    @InjectDataSource(WEBHOOKS_DS) ds: DataSource,
  ) {
    // One query per scrape for both gauges: the registry collects them side by side.
    let reading: ReturnType<typeof DeliveryQueueStore.depth> | undefined;
    const read = (): ReturnType<typeof DeliveryQueueStore.depth> =>
      (reading ??= DeliveryQueueStore.depth(ds.manager).finally(() => setImmediate(() => (reading = undefined))));
    this.depth = new Gauge({
      name: 'hub_webhook_queue_depth',
      help: 'Pending deliveries: due now, or scheduled for later (retries waiting)',
      labelNames: ['state'],
      registers: [],
      async collect() {
        const depth = await read();
        this.set({ state: 'due' }, depth.due);
        this.set({ state: 'scheduled' }, depth.scheduled);
      },
    });
    this.oldestDue = new Gauge({
      name: 'hub_webhook_oldest_due_seconds',
      help: 'Age of the oldest pending delivery that is due (0 when none waits): deliveries falling behind',
      registers: [],
      async collect() {
        this.set((await read()).oldestDueSeconds);
      },
    });
  }

  onApplicationBootstrap(): void {
    let registry: Registry | undefined;
    try {
      registry = this.moduleRef.get(HttpMetrics, { strict: false }).registry;
    } catch {
      return; // no /metrics in this composition (unit tests)
    }
    registry.registerMetric(this.attempts);
    // Successes start at 0 for every trigger, so a rate() of them reads 0 before the first delivery, not "no data".
    for (const trigger of DELIVERY_TRIGGERS) this.attempts.inc({ outcome: 'success', trigger }, 0);
    registry.registerMetric(this.latency);
    registry.registerMetric(this.retries);
    registry.registerMetric(this.suspensions);
    registry.registerMetric(this.depth);
    registry.registerMetric(this.oldestDue);
  }
}
