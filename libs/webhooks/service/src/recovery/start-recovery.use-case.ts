import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import {
  MAX_RECOVERY_DELIVERIES,
  type RecoverWebhookRpc,
  type RecoveryView,
  WebhooksRpc,
} from '@hub/webhooks-contract';
import { newObjectId } from '@hub/persistence';
import { DeliveryWake } from '../delivery/delivery-wake';
import { WebhookStore } from '../management/webhook.store';
import { type WebhooksConfig } from '../webhooks.config';
import { WEBHOOKS_CONFIG, WEBHOOKS_DS } from '../webhooks.di';
import {
  RecoveriesPerHourError,
  RecoveryOfDisabledWebhookError,
  RecoveryRunningError,
  RecoveryTriggerLimitError,
  RecoveryWindowError,
} from './recoveries.errors';
import { refreshRecovery } from './recovery-progress';
import { RecoveryStore, toRecoveryView } from './recovery.store';
import { RpcHandler } from '@hub/messaging';

/**
 * `POST …/recover` (issue 27 item 2, decision 0502): the window's failed deliveries back in the
 * queue, bounded (decision 0505, RecoveryStore says how): one running per webhook,
 * HUB_WEBHOOK_MAX_RECOVERIES_PER_HOUR, what is left of HUB_WEBHOOK_MAX_TRIGGERS_PER_DAY.
 */
@Injectable()
export class StartRecoveryUseCase {
  constructor(
    @InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource,
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
    private readonly wake: DeliveryWake,
  ) {}

  @RpcHandler(WebhooksRpc.Recover)
  async execute(dto: RecoverWebhookRpc): Promise<RecoveryView> {
    const webhook = await WebhookStore.get(this.ds.manager, dto.ownerId, dto.id);
    // A disabled or suspended webhook drops what it is given.
    if (webhook.disabled !== 'false') throw new RecoveryOfDisabledWebhookError();
    const since = new Date(dto.since);
    const until = dto.until ? new Date(dto.until) : new Date();
    if (!(since < until)) throw new RecoveryWindowError();
    const c = this.config;
    const view = await this.ds.transaction(async (m) => {
      // Two recoveries of one webhook started at once: one after the other, the second sees the first.
      await RecoveryStore.lock(m, webhook.id);
      for (const r of await RecoveryStore.running(m, webhook.id)) {
        if ((await refreshRecovery(m, r)).state === 'running') throw new RecoveryRunningError(r.id);
      }
      const started = await RecoveryStore.startedInLastHour(m, webhook.id);
      if (started.n >= c.HUB_WEBHOOK_MAX_RECOVERIES_PER_HOUR)
        throw new RecoveriesPerHourError(c.HUB_WEBHOOK_MAX_RECOVERIES_PER_HOUR, Math.max(1, started.retry_in ?? 1));
      const left = c.HUB_WEBHOOK_MAX_TRIGGERS_PER_DAY - (await RecoveryStore.triggersUsed(m, webhook.id));
      if (left <= 0) throw new RecoveryTriggerLimitError(c.HUB_WEBHOOK_MAX_TRIGGERS_PER_DAY);
      const id = newObjectId();
      const { n, skipped } = await RecoveryStore.requeue(m, {
        webhookId: webhook.id,
        since,
        until,
        limit: Math.min(MAX_RECOVERY_DELIVERIES, left),
        id,
        cooldownSeconds: c.HUB_WEBHOOK_RECOVERY_COOLDOWN_SECONDS,
      });
      return toRecoveryView(
        await RecoveryStore.insert(m, { id, webhookId: webhook.id, since, until, queued: n, skipped }),
      );
    });
    this.wake.queued();
    return view;
  }
}
