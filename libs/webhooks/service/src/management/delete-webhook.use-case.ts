import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type WebhookRefRpc, WebhooksRpc } from '@hub/webhooks-contract';
import { WEBHOOKS_DS } from '../webhooks.di';
import { WebhookStore } from './webhook.store';
import { RpcHandler } from '@hub/messaging';

/** Spec 4.5 delete: its watched names, queue rows and logs go with it (ON DELETE CASCADE). */
@Injectable()
export class DeleteWebhookUseCase {
  constructor(@InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource) {}

  @RpcHandler(WebhooksRpc.Delete)
  async execute(dto: WebhookRefRpc): Promise<{ deleted: true }> {
    await WebhookStore.delete(this.ds.manager, (await WebhookStore.get(this.ds.manager, dto.ownerId, dto.id)).id);
    return { deleted: true };
  }
}
