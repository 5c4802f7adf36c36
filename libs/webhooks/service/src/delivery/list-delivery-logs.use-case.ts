import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type ListWebhookLogsRpc, type WebhookLogPage, WebhooksRpc } from '@hub/webhooks-contract';
import { WEBHOOKS_DS } from '../webhooks.di';
import { WebhookStore } from '../management/webhook.store';
import { DeliveryLogStore } from './delivery-log.store';
import { RpcHandler } from '@hub/messaging';

/** The delivery log of one webhook of the caller, newest first, filtered (decision 0502). */
@Injectable()
export class ListDeliveryLogsUseCase {
  constructor(@InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource) {}

  @RpcHandler(WebhooksRpc.ListLogs)
  async execute(dto: ListWebhookLogsRpc): Promise<WebhookLogPage> {
    const webhook = await WebhookStore.get(this.ds.manager, dto.ownerId, dto.id);
    // A transaction of its own: the page sets a planner setting for its statements only (SET LOCAL).
    return this.ds.transaction((m) => DeliveryLogStore.page(m, webhook.id, dto.limit, dto.cursor, dto.filter));
  }
}
