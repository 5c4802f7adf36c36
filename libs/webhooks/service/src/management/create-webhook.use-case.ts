import { Inject, Injectable } from '@nestjs/common';
import { SecretBox } from '@hub/config';
import { type RequestContext } from '@hub/contracts';
import { type CreateWebhookRpc, type WebhookView } from '@hub/webhooks-contract';
import { RpcClient } from '@hub/messaging';
import { type WebhooksConfig } from '../webhooks.config';
import { WEBHOOKS_CONFIG } from '../webhooks.di';
import { GetWebhookUseCase } from './get-webhook.use-case';
import { checkSourceJob } from './source-job';
import { changesFrom } from './webhook-changes';
import { WebhookStore } from './webhook.store';

/** Spec 4.5 create: the body rules of decision 0500, the secret sealed, at most HUB_WEBHOOKS_MAX_PER_USER. */
@Injectable()
export class CreateWebhookUseCase {
  constructor(
    private readonly store: WebhookStore,
    private readonly box: SecretBox,
    private readonly rpc: RpcClient,
    private readonly getWebhook: GetWebhookUseCase,
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
  ) {}

  async execute(dto: CreateWebhookRpc, ctx: RequestContext): Promise<WebhookView> {
    const c = changesFrom(dto.body);
    if (c.jobSourceId) await checkSourceJob(this.rpc, c.jobSourceId, dto, ctx);
    const id = await this.store.insert(
      { id: dto.ownerId, name: dto.ownerName },
      c,
      c.secret ? this.box.seal(c.secret) : null,
      this.config.HUB_WEBHOOKS_MAX_PER_USER,
    );
    return this.getWebhook.execute({ ownerId: dto.ownerId, ownerName: dto.ownerName, id }, ctx);
  }
}
