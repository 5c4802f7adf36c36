import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type WebhookDeliveryOptionsView, type WebhookRefRpc, WebhooksRpc } from '@hub/webhooks-contract';
import { WebhookStore } from '../management/webhook.store';
import { WEBHOOKS_DS } from '../webhooks.di';
import { DeliveryOptionsStore } from './delivery-options.store';
import { RpcHandler } from '@hub/messaging';

/** `GET …/delivery-options`: the defaults (not paced, not ordered) until set. */
@Injectable()
export class GetDeliveryOptionsUseCase {
  constructor(@InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource) {}

  @RpcHandler(WebhooksRpc.GetDeliveryOptions)
  async execute(dto: WebhookRefRpc): Promise<WebhookDeliveryOptionsView> {
    const webhook = await WebhookStore.get(this.ds.manager, dto.ownerId, dto.id);
    return DeliveryOptionsStore.get(this.ds.manager, webhook.id);
  }
}
