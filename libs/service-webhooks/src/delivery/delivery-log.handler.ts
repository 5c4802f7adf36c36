import { ListWebhookLogsRpc, ReplayWebhookRpc, type WebhookLogPage, WebhooksRpc } from '@hub/contracts';
import { RpcController, RpcHandler } from '@hub/messaging';
import { ListDeliveryLogsUseCase } from './list-delivery-logs.use-case';
import { ReplayDeliveryUseCase } from './replay-delivery.use-case';

/** The delivery log of one webhook, and replay (spec 4.5). */
@RpcController()
export class DeliveryLogHandler {
  constructor(
    private readonly listLogs: ListDeliveryLogsUseCase,
    private readonly replay: ReplayDeliveryUseCase,
  ) {}

  @RpcHandler(WebhooksRpc.ListLogs)
  onListLogs(dto: ListWebhookLogsRpc): Promise<WebhookLogPage> {
    return this.listLogs.execute(dto);
  }

  @RpcHandler(WebhooksRpc.Replay)
  onReplay(dto: ReplayWebhookRpc): Promise<{ status: number }> {
    return this.replay.execute(dto);
  }
}
