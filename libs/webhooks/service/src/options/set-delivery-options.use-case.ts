import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type SetDeliveryOptionsRpc, type WebhookDeliveryOptionsView, WebhooksRpc } from '@hub/webhooks-contract';
import { DeliveryWake } from '../delivery/delivery-wake';
import { WebhookStore } from '../management/webhook.store';
import { WEBHOOKS_DS } from '../webhooks.di';
import { DeliveryOptionsStore } from './delivery-options.store';
import { RpcHandler } from '@hub/messaging';

/** `PUT …/delivery-options`: the whole set; left out or null is off (decision 0503). */
@Injectable()
export class SetDeliveryOptionsUseCase {
  constructor(
    @InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource,
    private readonly wake: DeliveryWake,
  ) {}

  @RpcHandler(WebhooksRpc.SetDeliveryOptions)
  async execute(dto: SetDeliveryOptionsRpc): Promise<WebhookDeliveryOptionsView> {
    const webhook = await WebhookStore.get(this.ds.manager, dto.ownerId, dto.id);
    const options = { maxPerSecond: dto.maxPerSecond ?? null, ordered: dto.ordered ?? false };
    await this.ds.transaction((m) => DeliveryOptionsStore.set(m, webhook.id, options));
    // This replica claims paced deliveries from now on; the others see it at their next look.
    this.wake.optionsChanged();
    return options;
  }
}
