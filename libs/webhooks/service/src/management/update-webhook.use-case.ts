import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { SecretBox } from '@hub/config';
import { type RequestContext } from '@hub/contracts';
import { type UpdateWebhookRpc, type WebhookView, WebhooksRpc } from '@hub/webhooks-contract';
import { RpcClient, RpcHandler } from '@hub/messaging';
import { WEBHOOKS_DS } from '../webhooks.di';
import { checkSourceJob } from './source-job';
import { changesFrom } from './webhook-changes';
import { WebhookViews } from './webhook-row';
import { WebhookStore } from './webhook.store';

/** Spec 4.5 update: what the body leaves out is kept (decision 0500); a new jobSourceId is checked. */
@Injectable()
export class UpdateWebhookUseCase {
  constructor(
    @InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource,
    private readonly box: SecretBox,
    private readonly rpc: RpcClient,
    private readonly views: WebhookViews,
  ) {}

  @RpcHandler(WebhooksRpc.Update)
  async execute(dto: UpdateWebhookRpc, ctx: RequestContext): Promise<WebhookView> {
    const current = await WebhookStore.get(this.ds.manager, dto.ownerId, dto.id);
    const c = changesFrom(dto.body, current);
    if (c.jobSourceId && c.jobSourceId !== current.job_source_id)
      await checkSourceJob(this.rpc, c.jobSourceId, dto, ctx);
    const secretEnc = c.secret === undefined ? undefined : c.secret === null ? null : this.box.seal(c.secret);
    await this.ds.transaction((m) => WebhookStore.update(m, current.id, c, secretEnc));
    const [view] = await this.views.render([await WebhookStore.get(this.ds.manager, dto.ownerId, dto.id)], dto, ctx);
    return view;
  }
}
