import { Injectable } from '@nestjs/common';
import { type RecoverWebhookRpc, type RecoveryView } from '@hub/webhooks-contract';
import { DeliveryWorker } from '../delivery/delivery-worker';
import { WebhookStore } from '../management/webhook.store';
import { RecoveryOfDisabledWebhookError } from './recoveries.errors';
import { RecoveryStore } from './recovery.store';

/** `POST …/recover` (issue 27 item 2, decision 0502): the window's failed deliveries back in the queue. */
@Injectable()
export class StartRecoveryUseCase {
  constructor(
    private readonly store: WebhookStore,
    private readonly recoveries: RecoveryStore,
    private readonly worker: DeliveryWorker,
  ) {}

  async execute(dto: RecoverWebhookRpc): Promise<RecoveryView> {
    const webhook = await this.store.get(dto.ownerId, dto.id);
    // A disabled or suspended webhook drops what it is given.
    if (webhook.disabled !== 'false') throw new RecoveryOfDisabledWebhookError();
    const view = await this.recoveries.start(
      webhook.id,
      new Date(dto.since),
      dto.until ? new Date(dto.until) : new Date(),
    );
    this.worker.poke();
    return view;
  }
}
