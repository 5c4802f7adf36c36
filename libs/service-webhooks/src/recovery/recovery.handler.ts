import { ConflictError, GetRecoveryRpc, RecoverWebhookRpc, type RecoveryView, WebhooksRpc } from '@hub/contracts';
import { RpcController, RpcHandler } from '@hub/messaging';
import { DeliveryWorker } from '../delivery/delivery-worker';
import { WebhookStore } from '../management/webhook.store';
import { RecoveryStore } from './recovery.store';

/** `POST …/recover` and `GET …/recoveries/{id}` (issue 27 item 2, decision 0502). */
@RpcController()
export class RecoveryHandler {
  constructor(
    private readonly store: WebhookStore,
    private readonly recoveries: RecoveryStore,
    private readonly worker: DeliveryWorker,
  ) {}

  @RpcHandler(WebhooksRpc.Recover)
  async onRecover(dto: RecoverWebhookRpc): Promise<RecoveryView> {
    const webhook = await this.store.get(dto.ownerId, dto.id);
    // A disabled or suspended webhook drops what it is given: enable it first.
    if (webhook.disabled !== 'false') throw new ConflictError('The webhook is disabled or suspended: enable it first');
    const view = await this.recoveries.start(
      webhook.id,
      new Date(dto.since),
      dto.until ? new Date(dto.until) : new Date(),
    );
    this.worker.poke();
    return view;
  }

  @RpcHandler(WebhooksRpc.GetRecovery)
  async onGet(dto: GetRecoveryRpc): Promise<RecoveryView> {
    const webhook = await this.store.get(dto.ownerId, dto.id);
    return this.recoveries.get(webhook.id, dto.recoveryId);
  }
}
