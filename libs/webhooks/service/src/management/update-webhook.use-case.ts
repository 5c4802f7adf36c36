import { Injectable } from '@nestjs/common';
import { SecretBox } from '@hub/config';
import { type RequestContext } from '@hub/contracts';
import { type UpdateWebhookRpc, type WebhookView } from '@hub/webhooks-contract';
import { RpcClient } from '@hub/messaging';
import { GetWebhookUseCase } from './get-webhook.use-case';
import { checkSourceJob } from './source-job';
import { changesFrom } from './webhook-changes';
import { WebhookStore } from './webhook.store';

/** Spec 4.5 update: what the body leaves out is kept (decision 0500); a new jobSourceId is checked. */
@Injectable()
export class UpdateWebhookUseCase {
  constructor(
    private readonly store: WebhookStore,
    private readonly box: SecretBox,
    private readonly rpc: RpcClient,
    private readonly getWebhook: GetWebhookUseCase,
  ) {}

  async execute(dto: UpdateWebhookRpc, ctx: RequestContext): Promise<WebhookView> {
    const current = await this.store.get(dto.ownerId, dto.id);
    const c = changesFrom(dto.body, current);
    if (c.jobSourceId && c.jobSourceId !== current.job_source_id)
      await checkSourceJob(this.rpc, c.jobSourceId, dto, ctx);
    await this.store.update(
      current.id,
      c,
      c.secret === undefined ? undefined : c.secret === null ? null : this.box.seal(c.secret),
    );
    return this.getWebhook.execute(dto, ctx);
  }
}
