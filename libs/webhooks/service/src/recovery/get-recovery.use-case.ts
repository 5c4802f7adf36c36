import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type GetRecoveryRpc, type RecoveryView, WebhooksRpc } from '@hub/webhooks-contract';
import { WebhookStore } from '../management/webhook.store';
import { WEBHOOKS_DS } from '../webhooks.di';
import { refreshRecovery } from './recovery-progress';
import { RecoveryStore, toRecoveryView } from './recovery.store';
import { RpcHandler } from '@hub/messaging';

/** `GET …/recoveries/{id}`: its counts, read from its rows while any is pending. */
@Injectable()
export class GetRecoveryUseCase {
  constructor(@InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource) {}

  @RpcHandler(WebhooksRpc.GetRecovery)
  async execute(dto: GetRecoveryRpc): Promise<RecoveryView> {
    const webhook = await WebhookStore.get(this.ds.manager, dto.ownerId, dto.id);
    const recovery = await RecoveryStore.get(this.ds.manager, webhook.id, dto.recoveryId);
    return toRecoveryView(await refreshRecovery(this.ds.manager, recovery));
  }
}
