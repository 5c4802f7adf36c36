import { type RequestContext } from '@hub/contracts';
import {
  CreateWebhookRpc,
  SetWebhookStateRpc,
  UpdateWebhookRpc,
  type WebhookView,
  WebhookOwnerRpc,
  WebhookRefRpc,
  WebhooksRpc,
} from '@hub/webhooks-contract';
import { RpcController, RpcHandler } from '@hub/messaging';
import { CreateWebhookUseCase } from './create-webhook.use-case';
import { DeleteWebhookUseCase } from './delete-webhook.use-case';
import { GetWebhookUseCase } from './get-webhook.use-case';
import { ListWebhooksUseCase } from './list-webhooks.use-case';
import { SetWebhookStateUseCase } from './set-webhook-state.use-case';
import { UpdateWebhookUseCase } from './update-webhook.use-case';

/** Spec 4.5: the management API, every call scoped to the caller; one use case per RPC. */
@RpcController()
export class WebhooksHandler {
  constructor(
    private readonly listWebhooks: ListWebhooksUseCase,
    private readonly getWebhook: GetWebhookUseCase,
    private readonly createWebhook: CreateWebhookUseCase,
    private readonly updateWebhook: UpdateWebhookUseCase,
    private readonly deleteWebhook: DeleteWebhookUseCase,
    private readonly setWebhookState: SetWebhookStateUseCase,
  ) {}

  @RpcHandler(WebhooksRpc.List)
  onList(dto: WebhookOwnerRpc, ctx: RequestContext): Promise<WebhookView[]> {
    return this.listWebhooks.execute(dto, ctx);
  }

  @RpcHandler(WebhooksRpc.Get)
  onGet(dto: WebhookRefRpc, ctx: RequestContext): Promise<WebhookView> {
    return this.getWebhook.execute(dto, ctx);
  }

  @RpcHandler(WebhooksRpc.Create)
  onCreate(dto: CreateWebhookRpc, ctx: RequestContext): Promise<WebhookView> {
    return this.createWebhook.execute(dto, ctx);
  }

  @RpcHandler(WebhooksRpc.Update)
  onUpdate(dto: UpdateWebhookRpc, ctx: RequestContext): Promise<WebhookView> {
    return this.updateWebhook.execute(dto, ctx);
  }

  @RpcHandler(WebhooksRpc.Delete)
  onDelete(dto: WebhookRefRpc): Promise<{ deleted: true }> {
    return this.deleteWebhook.execute(dto);
  }

  @RpcHandler(WebhooksRpc.SetState)
  onSetState(dto: SetWebhookStateRpc, ctx: RequestContext): Promise<WebhookView> {
    return this.setWebhookState.execute(dto, ctx);
  }
}
