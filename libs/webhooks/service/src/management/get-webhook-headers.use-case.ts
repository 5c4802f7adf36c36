import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type WebhookHeadersAnswer, type WebhookRefRpc, WebhooksRpc } from '@hub/webhooks-contract';
import { SecretBox } from '@hub/config';
import { CustomHeaders } from './custom-headers';
import { WEBHOOKS_DS } from '../webhooks.di';
import { WebhookStore } from './webhook.store';
import { RpcHandler } from '@hub/messaging';

/** The custom headers of a webhook as names and hints, never the values (decision 0502). */
@Injectable()
export class GetWebhookHeadersUseCase {
  constructor(
    @InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource,
    private readonly box: SecretBox,
  ) {}

  @RpcHandler(WebhooksRpc.GetHeaders)
  async execute(dto: WebhookRefRpc): Promise<WebhookHeadersAnswer> {
    return CustomHeaders.answer(this.box, await WebhookStore.get(this.ds.manager, dto.ownerId, dto.id));
  }
}
