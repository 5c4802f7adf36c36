import { Injectable } from '@nestjs/common';
import { type RequestContext } from '@hub/contracts';
import { type WebhookRefRpc, type WebhookView } from '@hub/webhooks-contract';
import { WebhookStore } from './webhook.store';
import { WebhookViews } from './webhook-views';

/** One webhook of the caller; another user's is a 404 (WebhookNotFoundError). */
@Injectable()
export class GetWebhookUseCase {
  constructor(
    private readonly store: WebhookStore,
    private readonly views: WebhookViews,
  ) {}

  async execute(dto: WebhookRefRpc, ctx: RequestContext): Promise<WebhookView> {
    const [view] = await this.views.render([await this.store.get(dto.ownerId, dto.id)], dto, ctx);
    return view;
  }
}
