import { Injectable } from '@nestjs/common';
import { type SetWebhookHeadersRpc, type WebhookHeadersAnswer } from '@hub/webhooks-contract';
import { CustomHeaders } from './custom-headers';
import { WebhookStore } from './webhook.store';

/** Replaces the custom headers as a whole, sealed at rest like the secret (decision 0502). */
@Injectable()
export class SetWebhookHeadersUseCase {
  constructor(
    private readonly store: WebhookStore,
    private readonly headers: CustomHeaders,
  ) {}

  async execute(dto: SetWebhookHeadersRpc): Promise<WebhookHeadersAnswer> {
    const webhook = await this.store.get(dto.ownerId, dto.id);
    const sealed = this.headers.seal(dto.headers.map((h) => ({ name: h.name, value: h.value })));
    await this.store.setHeaders(webhook.id, sealed);
    return this.headers.answer({ ...webhook, headers_enc: sealed });
  }
}
