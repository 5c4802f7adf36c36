import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { type WebhookRow } from '../management/webhook-row';
import { WebhookStore } from '../management/webhook.store';
import { type WebhooksConfig } from '../webhooks.config';
import { WEBHOOKS_CONFIG } from '../webhooks.tokens';
import { DeliveryAttempts } from './delivery-attempts';
import { DeliveryLogStore } from './delivery-log.store';
import { DeliveryMetrics } from './delivery-metrics';
import { type ClaimedDelivery, DeliveryQueue } from './delivery-queue';
import { nextDelayMs } from './retry-policy';
import { WebhookHealth } from './webhook-health';

/**
 * Claims due deliveries and attempts them, up to HUB_WEBHOOK_CONCURRENCY at once. Every replica
 * runs one; SKIP LOCKED and the lease keep them apart, and a lease that runs out (the process was
 * killed) puts the row back, so nothing accepted is lost (decision 0500).
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DeliveryWorker');
  private running = false;
  private inFlight = 0;
  private loop?: Promise<void>;
  private wake?: () => void;
  private lastHousekeeping = 0;

  constructor(
    private readonly queue: DeliveryQueue,
    private readonly store: WebhookStore,
    private readonly attempts: DeliveryAttempts,
    private readonly health: WebhookHealth,
    private readonly logs: DeliveryLogStore,
    private readonly metrics: DeliveryMetrics,
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.running = true;
    this.loop = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    // Attempts in flight finish (bounded by the timeout); their rows would come back anyway.
    while (this.inFlight > 0) await sleep(20);
  }

  /** New rows were queued: look now rather than at the next poll. */
  poke(): void {
    this.wake?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      let claimed: ClaimedDelivery[] = [];
      try {
        const room = this.config.HUB_WEBHOOK_CONCURRENCY - this.inFlight;
        if (room > 0) claimed = await this.queue.claim(room);
        const webhooks = claimed.length > 0 ? await this.store.byIds([...new Set(claimed.map((d) => d.webhook_id))]) : new Map<string, WebhookRow>();
        for (const d of claimed) {
          this.inFlight++;
          void this.deliver(d, webhooks.get(d.webhook_id)).finally(() => {
            this.inFlight--;
            this.wake?.();
          });
        }
        await this.housekeeping();
      } catch (err) {
        this.logger.warn({ err }, 'claiming deliveries failed; retrying');
      }
      if (claimed.length === 0 || this.inFlight >= this.config.HUB_WEBHOOK_CONCURRENCY) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, this.config.HUB_WEBHOOK_POLL_MS);
          this.wake = () => {
            clearTimeout(t);
            resolve();
          };
        });
        this.wake = undefined;
      }
    }
  }

  private async deliver(d: ClaimedDelivery, webhook: WebhookRow | undefined): Promise<void> {
    try {
      if (!webhook || webhook.disabled !== 'false') return await this.queue.dropped(d.id);
      const { result, ok } = await this.attempts.run({ webhook, deliveryId: d.id, eventPayload: d.payload, trigger: 'scheduled', attempt: d.attempts });
      this.metrics.latency.observe(result.durationMs / 1000);
      this.metrics.attempts.inc({ outcome: ok ? 'success' : result.status === null ? 'error' : `http_${Math.floor(result.status / 100)}xx`, trigger: 'scheduled' });
      if (ok) {
        await this.queue.succeeded(d.id);
        await this.health.succeeded(webhook.id);
        return;
      }
      const why = result.error ?? `HTTP ${result.status}`;
      const suspended = await this.health.failed(webhook.id, why, result.status === 410);
      const delay = suspended ? null : nextDelayMs(this.config.retrySchedule, d.attempts, result.headers['retry-after']);
      if (delay !== null) this.metrics.retries.inc();
      await this.queue.failed(d.id, delay);
    } catch (err) {
      // The row keeps its lease and comes back when it runs out.
      this.logger.warn({ err, delivery: d.id }, 'delivery attempt could not be recorded');
    }
  }

  private async housekeeping(): Promise<void> {
    if (Date.now() - this.lastHousekeeping < 10_000) return;
    this.lastHousekeeping = Date.now();
    const depth = await this.queue.depth();
    this.metrics.depth.set({ state: 'due' }, depth.due);
    this.metrics.depth.set({ state: 'scheduled' }, depth.scheduled);
    await this.logs.purgeOlderThan(this.config.HUB_WEBHOOK_LOG_RETENTION_DAYS);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
