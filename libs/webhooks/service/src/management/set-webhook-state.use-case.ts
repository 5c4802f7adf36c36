import { Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type SetWebhookStateRpc, type WebhookView } from '@hub/webhooks-contract';
import { GetWebhookUseCase } from './get-webhook.use-case';
import { WebhookStore } from './webhook.store';

/** enable (which also clears a suspension and its failure streak) or disable. */
@Injectable()
export class SetWebhookStateUseCase {
  constructor(
    private readonly store: WebhookStore,
    private readonly getWebhook: GetWebhookUseCase,
  ) {}

  async execute(dto: SetWebhookStateRpc, ctx: RequestContext): Promise<WebhookView> {
    await this.store.setDisabled((await this.store.get(dto.ownerId, dto.id)).id, dto.action === 'disable');
    return this.getWebhook.execute(dto, ctx);
  }
}
