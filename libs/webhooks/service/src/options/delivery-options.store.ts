import { type EntityManager } from 'typeorm';
import { type WebhookDeliveryOptionsView } from '@hub/webhooks-contract';

export interface DeliveryOptions {
  maxPerSecond: number | null;
  ordered: boolean;
}

const CONTROLLED = `(o.max_per_second IS NOT NULL OR o.ordered)`;

/**
 * Delivery options per webhook (decision 0503). A row stays once written (`{}` turns every option
 * off), so the flag fix-up below also finds webhooks whose options were just removed.
 */
export const DeliveryOptionsStore = {
  async get(m: EntityManager, webhookId: string): Promise<WebhookDeliveryOptionsView> {
    const rows: { max_per_second: number | null; ordered: boolean }[] = await m.query(
      `SELECT max_per_second, ordered FROM webhooks.delivery_options WHERE webhook_id = $1`,
      [webhookId],
    );
    return { maxPerSecond: rows[0]?.max_per_second ?? null, ordered: rows[0]?.ordered ?? false };
  },

  /**
   * Writes the options and marks the webhook's pending deliveries paced or not (in the caller's
   * transaction: both or neither). An intake statement running at that very moment may still queue
   * a delivery with the old mark: `reconcile` (the worker's housekeeping) corrects it within seconds.
   */
  async set(m: EntityManager, webhookId: string, o: DeliveryOptions): Promise<void> {
    await m.query(
      `INSERT INTO webhooks.delivery_options (webhook_id, max_per_second, ordered) VALUES ($1, $2, $3)
       ON CONFLICT (webhook_id) DO UPDATE SET max_per_second = EXCLUDED.max_per_second, ordered = EXCLUDED.ordered,
         updated_at = now(), next_at = LEAST(webhooks.delivery_options.next_at, now())`,
      [webhookId, o.maxPerSecond, o.ordered],
    );
    await m.query(
      `UPDATE webhooks.deliveries SET paced = $2 WHERE webhook_id = $1 AND state = 'pending' AND paced <> $2`,
      [webhookId, o.maxPerSecond !== null || o.ordered],
    );
  },

  /** Whether any webhook has options on: the worker runs the paced claim only then. */
  async anyControlled(m: EntityManager): Promise<boolean> {
    const rows: { any: boolean }[] = await m.query(
      `SELECT EXISTS (SELECT 1 FROM webhooks.delivery_options o WHERE ${CONTROLLED}) AS any`,
    );
    return rows[0]?.any === true;
  },

  /** The marks of pending deliveries of webhooks whose options changed in the last minute, made right. */
  async reconcile(m: EntityManager): Promise<void> {
    await m.query(
      `UPDATE webhooks.deliveries d SET paced = ${CONTROLLED}
       FROM webhooks.delivery_options o
       WHERE o.updated_at > now() - interval '1 minute' AND d.webhook_id = o.webhook_id
         AND d.state = 'pending' AND d.paced <> ${CONTROLLED}`,
    );
  },
};
