import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type RequestContext } from '@hub/contracts';
import { type WebhookRefRpc, type WebhookView, WebhooksRpc } from '@hub/webhooks-contract';
import { WEBHOOKS_DS } from '../webhooks.di';
import { WebhookStore } from './webhook.store';
import { WebhookViews } from './webhook-row';
import { RpcHandler } from '@hub/messaging';

/** One webhook of the caller; another user's is a 404 (WebhookNotFoundError). */
@Injectable()
export class GetWebhookUseCase {
  constructor(
    @InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource,
    private readonly views: WebhookViews,
  ) {}

  @RpcHandler(WebhooksRpc.Get)
  async execute(dto: WebhookRefRpc, ctx: RequestContext): Promise<WebhookView> {
    const [view] = await this.views.render([await WebhookStore.get(this.ds.manager, dto.ownerId, dto.id)], dto, ctx);
    return view;
  }
}
