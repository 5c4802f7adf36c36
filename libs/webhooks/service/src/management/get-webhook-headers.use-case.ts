import { Injectable } from '@nestjs/common';
import { type WebhookHeadersAnswer, type WebhookRefRpc } from '@hub/webhooks-contract';
import { CustomHeaders } from './custom-headers';
import { WebhookStore } from './webhook.store';

/** The custom headers of a webhook as names and hints, never the values (decision 0502). */
@Injectable()
export class GetWebhookHeadersUseCase {
  constructor(
    private readonly store: WebhookStore,
    private readonly headers: CustomHeaders,
  ) {}

  async execute(dto: WebhookRefRpc): Promise<WebhookHeadersAnswer> {
    return this.headers.answer(await this.store.get(dto.ownerId, dto.id));
  }
}
