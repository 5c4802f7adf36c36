import { Inject } from '@nestjs/common';
import {
  CreateWebhookRpc,
  JobsRpc,
  type RequestContext,
  SetWebhookStateRpc,
  UpdateWebhookRpc,
  type WebhookView,
  WebhookOwnerRpc,
  WebhookRefRpc,
  WebhooksRpc,
} from '@hub/contracts';
import { RpcClient, RpcController, RpcHandler } from '@hub/messaging';
import { SecretBox } from '../secrets/secret-box';
import { type WebhooksConfig } from '../webhooks.config';
import { WEBHOOKS_CONFIG } from '../webhooks.tokens';
import { changesFrom } from './webhook-changes';
import { toView } from './webhook-row';
import { WebhookStore } from './webhook.store';

/** Spec 4.5: the management API, every call scoped to the caller. */
@RpcController()
export class WebhooksHandler {
  constructor(
    private readonly store: WebhookStore,
    private readonly box: SecretBox,
    private readonly rpc: RpcClient,
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
  ) {}

  @RpcHandler(WebhooksRpc.List)
  async onList(dto: WebhookOwnerRpc): Promise<WebhookView[]> {
    return (await this.store.list(dto.ownerId)).map((r) => toView(r, this.config.publicUrl));
  }

  @RpcHandler(WebhooksRpc.Get)
  async onGet(dto: WebhookRefRpc): Promise<WebhookView> {
    return toView(await this.store.get(dto.ownerId, dto.id), this.config.publicUrl);
  }

  @RpcHandler(WebhooksRpc.Create)
  async onCreate(dto: CreateWebhookRpc, ctx: RequestContext): Promise<WebhookView> {
    const c = changesFrom(dto.body);
    if (c.jobSourceId) await this.checkSourceJob(c.jobSourceId, dto, ctx);
    const id = await this.store.insert(
      { id: dto.ownerId, name: dto.ownerName },
      c,
      c.secret ? this.box.seal(c.secret) : null,
      this.config.HUB_WEBHOOKS_MAX_PER_USER,
    );
    return this.onGet({ ownerId: dto.ownerId, ownerName: dto.ownerName, id });
  }

  @RpcHandler(WebhooksRpc.Update)
  async onUpdate(dto: UpdateWebhookRpc, ctx: RequestContext): Promise<WebhookView> {
    const current = await this.store.get(dto.ownerId, dto.id);
    const c = changesFrom(dto.body, current);
    if (c.jobSourceId && c.jobSourceId !== current.job_source_id) await this.checkSourceJob(c.jobSourceId, dto, ctx);
    await this.store.update(
      current.id,
      c,
      c.secret === undefined ? undefined : c.secret === null ? null : this.box.seal(c.secret),
    );
    return this.onGet(dto);
  }

  @RpcHandler(WebhooksRpc.Delete)
  async onDelete(dto: WebhookRefRpc): Promise<{ deleted: true }> {
    await this.store.delete((await this.store.get(dto.ownerId, dto.id)).id);
    return { deleted: true };
  }

  @RpcHandler(WebhooksRpc.SetState)
  async onSetState(dto: SetWebhookStateRpc): Promise<WebhookView> {
    await this.store.setDisabled((await this.store.get(dto.ownerId, dto.id)).id, dto.action === 'disable');
    return this.onGet(dto);
  }

  /** A jobSourceId must name a job the owner can read (decision 0501): else the jobs service's 404. */
  private async checkSourceJob(
    jobId: string,
    owner: { ownerId: string; ownerName: string },
    ctx: RequestContext,
  ): Promise<void> {
    await this.rpc.call(JobsRpc.Spec, { jobId, reader: { id: owner.ownerId, name: owner.ownerName } }, ctx);
  }
}
