import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type SetWebhookHeadersRpc, type WebhookHeadersAnswer, WebhooksRpc } from '@hub/webhooks-contract';
import { SecretBox } from '@hub/config';
import { CustomHeaders } from './custom-headers';
import { WEBHOOKS_DS } from '../webhooks.di';
import { WebhookStore } from './webhook.store';
import { RpcHandler } from '@hub/messaging';

/** Replaces the custom headers as a whole, sealed at rest like the secret (decision 0502). */
@Injectable()
export class SetWebhookHeadersUseCase {
  constructor(
    @InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource,
    private readonly box: SecretBox,
  ) {}

  @RpcHandler(WebhooksRpc.SetHeaders)
  async execute(dto: SetWebhookHeadersRpc): Promise<WebhookHeadersAnswer> {
    const webhook = await WebhookStore.get(this.ds.manager, dto.ownerId, dto.id);
    const sealed = CustomHeaders.seal(
      this.box,
      dto.headers.map((h) => ({ name: h.name, value: h.value })),
    );
    await WebhookStore.setHeaders(this.ds.manager, webhook.id, sealed);
    return CustomHeaders.answer(this.box, { ...webhook, headers_enc: sealed });
  }
}
