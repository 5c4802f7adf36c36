import { Inject, Injectable, Logger } from '@nestjs/common';
import { WebhookEvents } from '@hub/webhooks-contract';
import { Outbox } from '@hub/messaging';
import { type WebhooksConfig } from '../webhooks.config';
import { WEBHOOKS_CONFIG } from '../webhooks.di';
import { DeliveryMetrics } from './delivery-metrics';
import { WebhookHealthStore } from './webhook-health.store';

/**
 * The suspension rule (architecture section 7): a webhook failing with no success for the
 * window (or for the configured count of attempts in a row) is suspended; 410 suspends at once.
 * Any success ends the streak, so a receiver that fails now and then is never suspended.
 */
@Injectable()
export class WebhookHealth {
  private readonly logger = new Logger('WebhookHealth');

  constructor(
    private readonly outbox: Outbox,
    private readonly metrics: DeliveryMetrics,
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
  ) {}

  /** Returns true when this failure suspended the webhook. */
  async failed(webhookId: string, why: string, gone: boolean): Promise<boolean> {
    return this.outbox.transaction(async (m) => {
      const w = await WebhookHealthStore.countFailure(m, webhookId);
      if (!w || w.disabled !== 'false') return false;
      const failingForS = (Date.now() - new Date(w.failing_since).getTime()) / 1000;
      const byCount =
        this.config.HUB_WEBHOOK_SUSPEND_AFTER_FAILURES > 0 &&
        w.failures >= this.config.HUB_WEBHOOK_SUSPEND_AFTER_FAILURES;
      if (!gone && !byCount && failingForS < this.config.HUB_WEBHOOK_SUSPEND_AFTER_SECONDS) return false;
      const reason = gone
        ? `the receiver answered 410 Gone: ${why}`
        : `${w.failures} failed attempts in a row over ${Math.round(failingForS)} s without a success; last: ${why}`;
      await WebhookHealthStore.suspend(m, webhookId, reason);
      await this.outbox.add(
        m,
        WebhookEvents.Suspended,
        {
          webhookId,
          ownerId: w.owner_id,
          ownerName: w.owner_name,
          ownerType: 'user',
          ...(w.url ? { url: w.url } : {}),
          reason,
          suspendedAt: new Date().toISOString(),
        },
        { aggregate: webhookId },
      );
      this.logger.warn({ webhookId, reason }, 'webhook suspended');
      this.metrics.suspensions.inc();
      return true;
    });
  }
}
