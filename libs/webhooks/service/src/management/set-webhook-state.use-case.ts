import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type RequestContext } from '@hub/contracts';
import { type SetWebhookStateRpc, type WebhookView, WebhooksRpc } from '@hub/webhooks-contract';
import { WEBHOOKS_DS } from '../webhooks.di';
import { WebhookViews } from './webhook-row';
import { WebhookStore } from './webhook.store';
import { RpcHandler } from '@hub/messaging';

/** enable (which also clears a suspension and its failure streak) or disable. */
@Injectable()
export class SetWebhookStateUseCase {
  constructor(
    @InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource,
    private readonly views: WebhookViews,
  ) {}

  @RpcHandler(WebhooksRpc.SetState)
  async execute(dto: SetWebhookStateRpc, ctx: RequestContext): Promise<WebhookView> {
    await WebhookStore.setDisabled(
      this.ds.manager,
      (await WebhookStore.get(this.ds.manager, dto.ownerId, dto.id)).id,
      dto.action === 'disable',
    );
    const [view] = await this.views.render([await WebhookStore.get(this.ds.manager, dto.ownerId, dto.id)], dto, ctx);
    return view;
  }
}
