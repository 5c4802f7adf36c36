import { Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type WebhookOwnerRpc, type WebhookView } from '@hub/webhooks-contract';
import { WebhookStore } from './webhook.store';
import { WebhookViews } from './webhook-views';

/** Spec 4.5: the caller's webhooks, oldest first. */
@Injectable()
export class ListWebhooksUseCase {
  constructor(
    private readonly store: WebhookStore,
    private readonly views: WebhookViews,
  ) {}

  async execute(dto: WebhookOwnerRpc, ctx: RequestContext): Promise<WebhookView[]> {
    return this.views.render(await this.store.list(dto.ownerId), dto, ctx);
  }
}
