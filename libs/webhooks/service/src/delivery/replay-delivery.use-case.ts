import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type ReplayWebhookRpc, WebhooksRpc } from '@hub/webhooks-contract';
import { WEBHOOKS_DS } from '../webhooks.di';
import { WebhookStore } from '../management/webhook.store';
import { DeliveryAttempts } from './delivery-attempts';
import { DeliveryLogStore } from './delivery-log.store';
import { DeliveryMetrics } from './delivery-metrics';
import { RpcHandler } from '@hub/messaging';

/** Spec 4.5 replay: the logged payload to the current URL and secret, now; logged as a `replay` attempt. */
@Injectable()
export class ReplayDeliveryUseCase {
  constructor(
    @InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource,
    private readonly attempts: DeliveryAttempts,
    private readonly metrics: DeliveryMetrics,
  ) {}

  @RpcHandler(WebhooksRpc.Replay)
  async execute(dto: ReplayWebhookRpc): Promise<{ status: number }> {
    const webhook = await WebhookStore.get(this.ds.manager, dto.ownerId, dto.id);
    const logged = await DeliveryLogStore.get(this.ds.manager, webhook.id, dto.logId);
    const { result, ok } = await this.attempts.run({
      webhook,
      deliveryId: logged.deliveryId,
      eventPayload: withoutWebhook(logged.payload),
      trigger: 'replay',
      attempt: 1,
    });
    this.metrics.attempts.inc({ outcome: ok ? 'success' : 'failure', trigger: 'replay' });
    return { status: result.status ?? 0 };
  }
}

/** The logged body carries the `webhook` member of its attempt; the replay sets its own. */
function withoutWebhook(logged: string): string {
  const body = JSON.parse(logged) as Record<string, unknown>;
  delete body['webhook'];
  return JSON.stringify(body);
}
