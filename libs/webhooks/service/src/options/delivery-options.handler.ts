import {
  SetDeliveryOptionsRpc,
  type WebhookDeliveryOptionsView,
  WebhookRefRpc,
  WebhooksRpc,
} from '@hub/webhooks-contract';
import { RpcController, RpcHandler } from '@hub/messaging';
import { GetDeliveryOptionsUseCase } from './get-delivery-options.use-case';
import { SetDeliveryOptionsUseCase } from './set-delivery-options.use-case';

/** Delivery options of a webhook (issue 27 item 4, decision 0503): pacing and order. */
@RpcController()
export class DeliveryOptionsHandler {
  constructor(
    private readonly getOptions: GetDeliveryOptionsUseCase,
    private readonly setOptions: SetDeliveryOptionsUseCase,
  ) {}

  @RpcHandler(WebhooksRpc.GetDeliveryOptions)
  onGet(dto: WebhookRefRpc): Promise<WebhookDeliveryOptionsView> {
    return this.getOptions.execute(dto);
  }

  @RpcHandler(WebhooksRpc.SetDeliveryOptions)
  onSet(dto: SetDeliveryOptionsRpc): Promise<WebhookDeliveryOptionsView> {
    return this.setOptions.execute(dto);
  }
}
