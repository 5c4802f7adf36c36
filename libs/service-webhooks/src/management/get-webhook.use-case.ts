import { Inject, Injectable } from '@nestjs/common';
import { type WebhookRefRpc, type WebhookView } from '@hub/contracts';
import { type WebhooksConfig } from '../webhooks.config';
import { WEBHOOKS_CONFIG } from '../webhooks.tokens';
import { toView } from './webhook-row';
import { WebhookStore } from './webhook.store';

/** One webhook of the caller; another user's is a 404 (WebhookNotFoundError). */
@Injectable()
export class GetWebhookUseCase {
  constructor(
    private readonly store: WebhookStore,
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
  ) {}

  async execute(dto: WebhookRefRpc): Promise<WebhookView> {
    return toView(await this.store.get(dto.ownerId, dto.id), this.config.publicUrl);
  }
}
