import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type RequestContext } from '@hub/contracts';
import { type WebhookOwnerRpc, type WebhookView, WebhooksRpc } from '@hub/webhooks-contract';
import { WEBHOOKS_DS } from '../webhooks.di';
import { WebhookStore } from './webhook.store';
import { WebhookViews } from './webhook-row';
import { RpcHandler } from '@hub/messaging';

/** Spec 4.5: the caller's webhooks, oldest first. */
@Injectable()
export class ListWebhooksUseCase {
  constructor(
    @InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource,
    private readonly views: WebhookViews,
  ) {}

  @RpcHandler(WebhooksRpc.List)
  async execute(dto: WebhookOwnerRpc, ctx: RequestContext): Promise<WebhookView[]> {
    return this.views.render(await WebhookStore.list(this.ds.manager, dto.ownerId), dto, ctx);
  }
}
