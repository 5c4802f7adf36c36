import { Injectable } from '@nestjs/common';
import { type ListWebhookLogsRpc, type WebhookLogPage } from '@hub/webhooks-contract';
import { WebhookStore } from '../management/webhook.store';
import { DeliveryLogStore } from './delivery-log.store';

/** The delivery log of one webhook of the caller, newest first, filtered (decision 0502). */
@Injectable()
export class ListDeliveryLogsUseCase {
  constructor(
    private readonly store: WebhookStore,
    private readonly logs: DeliveryLogStore,
  ) {}

  async execute(dto: ListWebhookLogsRpc): Promise<WebhookLogPage> {
    const webhook = await this.store.get(dto.ownerId, dto.id);
    return this.logs.page(webhook.id, dto.limit, dto.cursor, dto.filter);
  }
}
