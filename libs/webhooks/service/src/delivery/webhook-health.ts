import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { WebhookEvents } from '@hub/webhooks-contract';
import { Outbox } from '@hub/messaging';
import { type WebhooksConfig } from '../webhooks.config';
import { WEBHOOKS_CONFIG, WEBHOOKS_DS } from '../webhooks.di';
import { DeliveryMetrics } from './delivery-metrics';
import { DeliveryQueueStore } from './delivery-queue.store';
import { GroupCommit } from './group-commit';
import { OUTCOME_TIMING } from './outcome-recorder';
import { type FailureStreak, WebhookHealthStore } from './webhook-health.store';

/** A failed attempt, its log row already written. */
export interface Failure {
  webhookId: string;
  deliveryId: string;
  /** The error, or `HTTP <status>`. */
  why: string;
  /** The receiver answered 410 Gone. */
  gone: boolean;
  /** When the delivery is tried again if its webhook is not suspended; null: never. */
  retryInMs: number | null;
}

/**
 * The suspension rule (architecture section 7): a webhook failing with no success for the
 * window (or for the configured count of attempts in a row) is suspended; 410 suspends at once.
 * Any success ends the streak, so a receiver that fails now and then is never suspended.
 *
 * Failures are written in groups, as outcomes are (issue 43): a statement counts the streaks of
 * the group's webhooks, another puts its deliveries back in the queue or gives them up; a
 * suspension is a transaction of its own with its event. A receiver that times out many attempts
 * at once cost four round trips per attempt, all at the same moment, before.
 */
@Injectable()
export class WebhookHealth implements OnApplicationShutdown {
  private readonly logger = new Logger('WebhookHealth');
  private readonly group: GroupCommit<Failure, number | null>;

  constructor(
    private readonly outbox: Outbox,
    private readonly metrics: DeliveryMetrics,
    @InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource,
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
  ) {
    this.group = new GroupCommit((failures) => this.write(failures), OUTCOME_TIMING);
  }

  /**
   * Resolves once the failure is counted and its delivery rescheduled or given up, with when it is
   * tried again: its `retryInMs`, or null (given up, or its webhook suspended).
   */
  failed(failure: Failure, soon = false): Promise<number | null> {
    return this.group.add(failure, soon);
  }

  onApplicationShutdown(): Promise<void> {
    return this.group.drain();
  }

  private async write(failures: Failure[]): Promise<(number | null)[]> {
    const byWebhook = new Map<string, Failure[]>();
    for (const f of failures) byWebhook.set(f.webhookId, [...(byWebhook.get(f.webhookId) ?? []), f]);
    const streaks = await WebhookHealthStore.countFailures(
      this.ds.manager,
      new Map([...byWebhook].map(([id, mine]) => [id, mine.length])),
    );
    const suspended = new Set<string>();
    for (const [webhookId, streak] of streaks) {
      const reason = this.suspensionReason(streak, byWebhook.get(webhookId) ?? []);
      if (reason && (await this.suspend(webhookId, streak, reason))) suspended.add(webhookId);
    }
    const delays = failures.map((f) => (suspended.has(f.webhookId) ? null : f.retryInMs));
    await DeliveryQueueStore.failed(
      this.ds.manager,
      failures.map((f, i) => ({ id: f.deliveryId, delayMs: delays[i] ?? null })),
    );
    return delays;
  }

  /** Why the streak suspends its webhook, or undefined while it stands. */
  private suspensionReason(w: FailureStreak, failures: Failure[]): string | undefined {
    if (w.disabled !== 'false') return undefined;
    const last = failures[failures.length - 1]?.why ?? '';
    const gone = failures.find((f) => f.gone);
    if (gone) return `the receiver answered 410 Gone: ${gone.why}`;
    const failingForS = (Date.now() - new Date(w.failing_since).getTime()) / 1000;
    const byCount =
      this.config.HUB_WEBHOOK_SUSPEND_AFTER_FAILURES > 0 &&
      w.failures >= this.config.HUB_WEBHOOK_SUSPEND_AFTER_FAILURES;
    if (!byCount && failingForS < this.config.HUB_WEBHOOK_SUSPEND_AFTER_SECONDS) return undefined;
    return `${w.failures} failed attempts in a row over ${Math.round(failingForS)} s without a success; last: ${last}`;
  }

  /** Suspends it with its event, unless another process did first; answers whether this one did. */
  private suspend(webhookId: string, w: FailureStreak, reason: string): Promise<boolean> {
    return this.outbox.transaction(async (m) => {
      if (!(await WebhookHealthStore.suspend(m, webhookId, reason))) return false;
      await this.outbox.add(
        m,
        WebhookEvents.Suspended,
        {
          webhookId,
          ownerId: w.owner_id,
          ownerName: w.owner_name,
          ownerType: 'user',
          ...(w.url ? { url: w.url } : {}),
          reason,
          suspendedAt: new Date().toISOString(),
        },
        { aggregate: webhookId },
      );
      this.logger.warn({ webhookId, reason }, 'webhook suspended');
      this.metrics.suspensions.inc();
      return true;
    });
  }
}
