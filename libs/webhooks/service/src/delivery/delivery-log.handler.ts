import {
  ListWebhookDeliveriesRpc,
  ListWebhookLogsRpc,
  ReplayWebhookRpc,
  type WebhookDeliveryView,
  type WebhookLogPage,
  WebhookRefRpc,
  WebhooksRpc,
} from '@hub/webhooks-contract';
import { RpcController, RpcHandler } from '@hub/messaging';
import { ListDeliveriesUseCase } from './list-deliveries.use-case';
import { ListDeliveryLogsUseCase } from './list-delivery-logs.use-case';
import { ReplayDeliveryUseCase } from './replay-delivery.use-case';
import { TestDeliveryUseCase } from './test-delivery.use-case';

/** The delivery log of one webhook, and replay (spec 4.5); its deliveries' retry state (decision 0804); the test event (0509). */
@RpcController()
export class DeliveryLogHandler {
  constructor(
    private readonly listLogs: ListDeliveryLogsUseCase,
    private readonly replay: ReplayDeliveryUseCase,
    private readonly listDeliveries: ListDeliveriesUseCase,
    private readonly test: TestDeliveryUseCase,
  ) {}

  @RpcHandler(WebhooksRpc.ListLogs)
  onListLogs(dto: ListWebhookLogsRpc): Promise<WebhookLogPage> {
    return this.listLogs.execute(dto);
  }

  @RpcHandler(WebhooksRpc.ListDeliveries)
  onListDeliveries(dto: ListWebhookDeliveriesRpc): Promise<WebhookDeliveryView[]> {
    return this.listDeliveries.execute(dto);
  }

  @RpcHandler(WebhooksRpc.Replay)
  onReplay(dto: ReplayWebhookRpc): Promise<{ status: number }> {
    return this.replay.execute(dto);
  }

  @RpcHandler(WebhooksRpc.Test)
  onTest(dto: WebhookRefRpc): Promise<{ status: number }> {
    return this.test.execute(dto);
  }
}
