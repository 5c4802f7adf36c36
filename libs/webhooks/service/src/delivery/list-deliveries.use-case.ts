import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type ListWebhookDeliveriesRpc, type WebhookDeliveryView, WebhooksRpc } from '@hub/webhooks-contract';
import { WebhookStore } from '../management/webhook.store';
import { type WebhooksConfig } from '../webhooks.config';
import { WEBHOOKS_CONFIG, WEBHOOKS_DS } from '../webhooks.di';
import { DeliveryQueueStore } from './delivery-queue.store';
import { RpcHandler } from '@hub/messaging';

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

  @RpcHandler(WebhooksRpc.ListDeliveries)
  async execute(dto: ListWebhookDeliveriesRpc): Promise<WebhookDeliveryView[]> {
    const webhook = await WebhookStore.get(this.ds.manager, dto.ownerId, dto.id);
    const rows = await DeliveryQueueStore.listOf(this.ds.manager, webhook.id, dto.ids ?? null, dto.limit);
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
