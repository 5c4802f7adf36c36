import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type DeliveryState, type ListWebhookDeliveriesRpc, type WebhookDeliveryView } from '@hub/webhooks-contract';
import { WebhookStore } from '../management/webhook.store';
import { type WebhooksConfig } from '../webhooks.config';
import { WEBHOOKS_CONFIG, WEBHOOKS_DS } from '../webhooks.di';

interface DeliveryRow {
  id: string;
  state: DeliveryState;
  attempts: number;
  due_at: Date;
  created_at: Date;
}

/**
 * `GET …/deliveries` (decision 0804): where each delivery's retry schedule stands, read from the
 * queue's rows as they are (this reads only; the worker alone changes them).
 */
@Injectable()
export class ListDeliveriesUseCase {
  constructor(
    @InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource,
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
  ) {}

  async execute(dto: ListWebhookDeliveriesRpc): Promise<WebhookDeliveryView[]> {
    const webhook = await WebhookStore.get(this.ds.manager, dto.ownerId, dto.id);
    const rows: DeliveryRow[] = await this.ds.query(
      `SELECT id, state, attempts, due_at, created_at FROM webhooks.deliveries
        WHERE webhook_id = $1 AND ($2::bpchar[] IS NULL OR id = ANY($2::bpchar[]))
        ORDER BY created_at DESC, id DESC LIMIT $3`,
      [webhook.id, dto.ids ?? null, dto.limit],
    );
    // The schedule has one pause per retry: attempt n + 1 is its last.
    const maxAttempts = this.config.retrySchedule.length + 1;
    return rows.map((r) => ({
      id: r.id.trim(),
      state: r.state,
      attempts: r.attempts,
      maxAttempts,
      nextAttemptAt: r.state === 'pending' ? new Date(r.due_at).toISOString() : null,
      createdAt: new Date(r.created_at).toISOString(),
    }));
  }
}
