import { Injectable } from '@nestjs/common';
import { type ReplayWebhookRpc } from '@hub/webhooks-contract';
import { WebhookStore } from '../management/webhook.store';
import { DeliveryAttempts } from './delivery-attempts';
import { DeliveryLogStore } from './delivery-log.store';
import { DeliveryMetrics } from './delivery-metrics';

/** Spec 4.5 replay: the logged payload to the current URL and secret, now; logged as a `replay` attempt. */
@Injectable()
export class ReplayDeliveryUseCase {
  constructor(
    private readonly store: WebhookStore,
    private readonly logs: DeliveryLogStore,
    private readonly attempts: DeliveryAttempts,
    private readonly metrics: DeliveryMetrics,
  ) {}

  async execute(dto: ReplayWebhookRpc): Promise<{ status: number }> {
    const webhook = await this.store.get(dto.ownerId, dto.id);
    const logged = await this.logs.get(webhook.id, dto.logId);
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
