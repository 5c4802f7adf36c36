import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type WebhookRefRpc, WebhooksRpc } from '@hub/webhooks-contract';
import { newObjectId } from '@hub/persistence';
import { WEBHOOKS_DS } from '../webhooks.di';
import { WebhookStore } from '../management/webhook.store';
import { type WebhookRow } from '../management/webhook-row';
import { TestNeedsUrlError } from './deliveries.errors';
import { DeliveryAttempts } from './delivery-attempts';
import { DeliveryMetrics } from './delivery-metrics';
import { RpcHandler } from '@hub/messaging';

const REPO_TYPES = new Set(['model', 'dataset', 'space']);

/**
 * The test event (decision 0509): payload v3 with `event.action` `ping` and `scope` `webhook`, and
 * the first watched repo (a user or organization watched: a model named after it), so a receiver
 * that reads `repo.type` and `event.action` parses it like any delivery and can tell it apart.
 */
export function testEvent(webhook: WebhookRow): Record<string, unknown> {
  const first = webhook.watched[0];
  const repo =
    first && REPO_TYPES.has(first.type)
      ? { type: first.type, name: first.name }
      : { type: 'model', name: `${first?.name ?? webhook.owner_name}/webhook-test` };
  return { event: { action: 'ping', scope: 'webhook' }, repo };
}

/** `POST …/{webhookId}/test`: one signed test event to the webhook's URL now; answers the receiver's status. */
@Injectable()
export class TestDeliveryUseCase {
  constructor(
    @InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource,
    private readonly attempts: DeliveryAttempts,
    private readonly metrics: DeliveryMetrics,
  ) {}

  @RpcHandler(WebhooksRpc.Test)
  async execute(dto: WebhookRefRpc): Promise<{ status: number }> {
    const webhook = await WebhookStore.get(this.ds.manager, dto.ownerId, dto.id);
    if (webhook.url === null) throw new TestNeedsUrlError();
    const { result, ok } = await this.attempts.run({
      webhook,
      deliveryId: newObjectId(),
      eventPayload: JSON.stringify(testEvent(webhook)),
      trigger: 'test',
      attempt: 1,
    });
    this.metrics.attempts.inc({ outcome: ok ? 'success' : 'failure', trigger: 'test' });
    return { status: result.status ?? 0 };
  }
}
