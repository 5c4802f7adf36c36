import { Injectable } from '@nestjs/common';
import { type SetDeliveryOptionsRpc, type WebhookDeliveryOptionsView } from '@hub/webhooks-contract';
import { DeliveryWorker } from '../delivery/delivery-worker';
import { WebhookStore } from '../management/webhook.store';
import { DeliveryOptionsStore } from './delivery-options.store';

/** `PUT …/delivery-options`: the whole set; left out or null is off (decision 0503). */
@Injectable()
export class SetDeliveryOptionsUseCase {
  constructor(
    private readonly store: WebhookStore,
    private readonly options: DeliveryOptionsStore,
    private readonly worker: DeliveryWorker,
  ) {}

  async execute(dto: SetDeliveryOptionsRpc): Promise<WebhookDeliveryOptionsView> {
    const webhook = await this.store.get(dto.ownerId, dto.id);
    const options = { maxPerSecond: dto.maxPerSecond ?? null, ordered: dto.ordered ?? false };
    await this.options.set(webhook.id, options);
    // This replica claims paced deliveries from now on; the others see it at their next look.
    this.worker.optionsChanged();
    return options;
  }
}
