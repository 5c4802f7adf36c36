import { Injectable } from '@nestjs/common';
import { type WebhookRefRpc } from '@hub/webhooks-contract';
import { WebhookStore } from './webhook.store';

/** Spec 4.5 delete: its watched names, queue rows and logs go with it (ON DELETE CASCADE). */
@Injectable()
export class DeleteWebhookUseCase {
  constructor(private readonly store: WebhookStore) {}

  async execute(dto: WebhookRefRpc): Promise<{ deleted: true }> {
    await this.store.delete((await this.store.get(dto.ownerId, dto.id)).id);
    return { deleted: true };
  }
}
