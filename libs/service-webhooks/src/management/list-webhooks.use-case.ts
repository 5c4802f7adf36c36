import { Inject, Injectable } from '@nestjs/common';
import { type WebhookOwnerRpc, type WebhookView } from '@hub/contracts';
import { type WebhooksConfig } from '../webhooks.config';
import { WEBHOOKS_CONFIG } from '../webhooks.tokens';
import { toView } from './webhook-row';
import { WebhookStore } from './webhook.store';

/** Spec 4.5: the caller's webhooks, oldest first. */
@Injectable()
export class ListWebhooksUseCase {
  constructor(
    private readonly store: WebhookStore,
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
  ) {}

  async execute(dto: WebhookOwnerRpc): Promise<WebhookView[]> {
    return (await this.store.list(dto.ownerId)).map((r) => toView(r, this.config.publicUrl));
  }
}
