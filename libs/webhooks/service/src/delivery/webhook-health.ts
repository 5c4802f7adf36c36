import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { WebhookEvents } from '@hub/contracts';
import { SUSPENDED } from '@hub/webhooks-contract';
import { Outbox } from '@hub/messaging';
import { type WebhooksConfig } from '../webhooks.config';
import { WEBHOOKS_CONFIG, WEBHOOKS_DS } from '../webhooks.di';
import { DeliveryMetrics } from './delivery-metrics';
import { rowsOf } from './rows';

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
    @InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource,
    private readonly metrics: DeliveryMetrics,
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
  ) {}

  /**
   * No event, so no outbox transaction (that would wake the relay on every delivery); and no
   * write when nothing changes but a lastTriggerAt less than a second old.
   */
  async succeeded(webhookId: string): Promise<void> {
    await this.ds.query(
      `UPDATE webhooks.webhooks SET last_trigger_at = now(), failing_since = NULL, failures = 0
       WHERE id = $1 AND (failures > 0 OR last_trigger_at IS NULL OR last_trigger_at < now() - interval '1 second')`,
      [webhookId],
    );
  }

  /** Returns true when this failure suspended the webhook. */
  async failed(webhookId: string, why: string, gone: boolean): Promise<boolean> {
    return this.outbox.transaction(async (m) => {
      const rows = rowsOf<{
        failing_since: Date;
        failures: number;
        disabled: string;
        owner_id: string;
        owner_name: string;
        url: string | null;
      }>(
        await m.query(
          `UPDATE webhooks.webhooks SET last_trigger_at = now(), failing_since = COALESCE(failing_since, now()), failures = failures + 1
         WHERE id = $1 RETURNING failing_since, failures, disabled, owner_id, owner_name, url`,
          [webhookId],
        ),
      );
      const w = rows[0];
      if (!w || w.disabled !== 'false') return false;
      const failingForS = (Date.now() - new Date(w.failing_since).getTime()) / 1000;
      const byCount =
        this.config.HUB_WEBHOOK_SUSPEND_AFTER_FAILURES > 0 &&
        w.failures >= this.config.HUB_WEBHOOK_SUSPEND_AFTER_FAILURES;
      if (!gone && !byCount && failingForS < this.config.HUB_WEBHOOK_SUSPEND_AFTER_SECONDS) return false;
      const reason = gone
        ? `the receiver answered 410 Gone: ${why}`
        : `${w.failures} failed attempts in a row over ${Math.round(failingForS)} s without a success; last: ${why}`;
      await m.query(`UPDATE webhooks.webhooks SET disabled = $2, suspended_reason = $3 WHERE id = $1`, [
        webhookId,
        SUSPENDED,
        reason,
      ]);
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
