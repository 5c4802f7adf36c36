import { Injectable } from '@nestjs/common';
import { type WebhookDeliveryOptionsView, type WebhookRefRpc } from '@hub/webhooks-contract';
import { WebhookStore } from '../management/webhook.store';
import { DeliveryOptionsStore } from './delivery-options.store';

/** `GET …/delivery-options`: the defaults (not paced, not ordered) until set. */
@Injectable()
export class GetDeliveryOptionsUseCase {
  constructor(
    private readonly store: WebhookStore,
    private readonly options: DeliveryOptionsStore,
  ) {}

  async execute(dto: WebhookRefRpc): Promise<WebhookDeliveryOptionsView> {
    const webhook = await this.store.get(dto.ownerId, dto.id);
    return this.options.get(webhook.id);
  }
}
