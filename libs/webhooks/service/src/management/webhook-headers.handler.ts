import { type WebhookHeadersAnswer, SetWebhookHeadersRpc, WebhookRefRpc, WebhooksRpc } from '@hub/webhooks-contract';
import { RpcController, RpcHandler } from '@hub/messaging';
import { GetWebhookHeadersUseCase } from './get-webhook-headers.use-case';
import { SetWebhookHeadersUseCase } from './set-webhook-headers.use-case';

/** Custom headers of a webhook (issue 27 item 3, decision 0502): set as a whole, never read back in full. */
@RpcController()
export class WebhookHeadersHandler {
  constructor(
    private readonly getHeaders: GetWebhookHeadersUseCase,
    private readonly setHeaders: SetWebhookHeadersUseCase,
  ) {}

  @RpcHandler(WebhooksRpc.GetHeaders)
  onGet(dto: WebhookRefRpc): Promise<WebhookHeadersAnswer> {
    return this.getHeaders.execute(dto);
  }

  @RpcHandler(WebhooksRpc.SetHeaders)
  onSet(dto: SetWebhookHeadersRpc): Promise<WebhookHeadersAnswer> {
    return this.setHeaders.execute(dto);
  }
}
