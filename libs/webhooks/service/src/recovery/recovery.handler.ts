import { GetRecoveryRpc, RecoverWebhookRpc, type RecoveryView, WebhooksRpc } from '@hub/webhooks-contract';
import { RpcController, RpcHandler } from '@hub/messaging';
import { GetRecoveryUseCase } from './get-recovery.use-case';
import { StartRecoveryUseCase } from './start-recovery.use-case';

/** `POST …/recover` and `GET …/recoveries/{id}` (issue 27 item 2, decision 0502). */
@RpcController()
export class RecoveryHandler {
  constructor(
    private readonly startRecovery: StartRecoveryUseCase,
    private readonly getRecovery: GetRecoveryUseCase,
  ) {}

  @RpcHandler(WebhooksRpc.Recover)
  onRecover(dto: RecoverWebhookRpc): Promise<RecoveryView> {
    return this.startRecovery.execute(dto);
  }

  @RpcHandler(WebhooksRpc.GetRecovery)
  onGet(dto: GetRecoveryRpc): Promise<RecoveryView> {
    return this.getRecovery.execute(dto);
  }
}
