import { type WebhookHeadersAnswer, SetWebhookHeadersRpc, WebhookRefRpc, WebhooksRpc } from '@hub/contracts';
import { RpcController, RpcHandler } from '@hub/messaging';
import { CustomHeaders } from './custom-headers';
import { WebhookStore } from './webhook.store';

/** Custom headers of a webhook (issue 27 item 3, decision 0502): set as a whole, never read back in full. */
@RpcController()
export class WebhookHeadersHandler {
  constructor(
    private readonly store: WebhookStore,
    private readonly headers: CustomHeaders,
  ) {}

  @RpcHandler(WebhooksRpc.GetHeaders)
  async onGet(dto: WebhookRefRpc): Promise<WebhookHeadersAnswer> {
    return this.headers.answer(await this.store.get(dto.ownerId, dto.id));
  }

  @RpcHandler(WebhooksRpc.SetHeaders)
  async onSet(dto: SetWebhookHeadersRpc): Promise<WebhookHeadersAnswer> {
    const webhook = await this.store.get(dto.ownerId, dto.id);
    const list = dto.headers.map((h) => ({ name: h.name, value: h.value }));
    const sealed = this.headers.seal(list);
    await this.store.setHeaders(webhook.id, sealed);
    return this.headers.answer({ ...webhook, headers_enc: sealed });
  }
}
