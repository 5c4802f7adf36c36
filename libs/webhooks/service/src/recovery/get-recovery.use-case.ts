import { Injectable } from '@nestjs/common';
import { type GetRecoveryRpc, type RecoveryView } from '@hub/webhooks-contract';
import { WebhookStore } from '../management/webhook.store';
import { RecoveryStore } from './recovery.store';

/** `GET …/recoveries/{id}`: its counts, read from its rows while any is pending. */
@Injectable()
export class GetRecoveryUseCase {
  constructor(
    private readonly store: WebhookStore,
    private readonly recoveries: RecoveryStore,
  ) {}

  async execute(dto: GetRecoveryRpc): Promise<RecoveryView> {
    const webhook = await this.store.get(dto.ownerId, dto.id);
    return this.recoveries.get(webhook.id, dto.recoveryId);
  }
}
