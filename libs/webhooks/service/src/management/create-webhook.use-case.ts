import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { SecretBox } from '@hub/config';
import { type RequestContext } from '@hub/contracts';
import { type CreateWebhookRpc, type WebhookView, WebhooksRpc } from '@hub/webhooks-contract';
import { RpcClient, RpcHandler } from '@hub/messaging';
import { type WebhooksConfig } from '../webhooks.config';
import { WEBHOOKS_CONFIG, WEBHOOKS_DS } from '../webhooks.di';
import { checkSourceJob } from './source-job';
import { changesFrom } from './webhook-changes';
import { WebhookViews } from './webhook-row';
import { WebhookStore } from './webhook.store';
import { TooManyWebhooksError } from './webhooks.errors';

/** Spec 4.5 create: the body rules of decision 0500, the secret sealed, at most HUB_WEBHOOKS_MAX_PER_USER. */
@Injectable()
export class CreateWebhookUseCase {
  constructor(
    @InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource,
    private readonly box: SecretBox,
    private readonly rpc: RpcClient,
    private readonly views: WebhookViews,
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
  ) {}

  @RpcHandler(WebhooksRpc.Create)
  async execute(dto: CreateWebhookRpc, ctx: RequestContext): Promise<WebhookView> {
    const c = changesFrom(dto.body);
    if (c.jobSourceId) await checkSourceJob(this.rpc, c.jobSourceId, dto, ctx);
    const owner = { id: dto.ownerId, name: dto.ownerName };
    const max = this.config.HUB_WEBHOOKS_MAX_PER_USER;
    const secretEnc = c.secret ? this.box.seal(c.secret) : null;
    const id = await this.ds.transaction(async (m) => {
      // Held until commit: parallel creates of one owner count one after the other, so they
      // cannot all see room for one more.
      await WebhookStore.lockOwner(m, owner.id);
      const n = await WebhookStore.countOf(m, owner.id);
      if (n >= max) throw new TooManyWebhooksError(n, max);
      return WebhookStore.insert(m, owner, c, secretEnc);
    });
    const [view] = await this.views.render([await WebhookStore.get(this.ds.manager, dto.ownerId, id)], dto, ctx);
    return view;
  }
}
