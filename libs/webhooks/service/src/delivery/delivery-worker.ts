import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { repeatPass } from '@hub/persistence';
import { type CustomHeader } from '../management/custom-headers';
import { type WebhookRow } from '../management/webhook-row';
import { WebhookStore } from '../management/webhook.store';
import { DeliveryOptionsStore } from '../options/delivery-options.store';
import { PacedClaim } from '../options/paced-claim';
import { type WebhooksConfig } from '../webhooks.config';
import { WEBHOOKS_CONFIG, WEBHOOKS_DS } from '../webhooks.di';
import { DeliveryAttempts } from './delivery-attempts';
import { DeliveryHousekeeping } from './delivery-housekeeping';
import { DeliveryMetrics } from './delivery-metrics';
import { type ClaimedDelivery, type DirectLease, DeliveryQueueStore, type OwnedDelivery } from './delivery-queue.store';
import { DeliveryTrace } from './delivery-trace';
import { DeliveryWake } from './delivery-wake';
import { HeldHeadLook } from './held-head-look';
import { InFlight } from './in-flight';
import { OutcomeRecorder } from './outcome-recorder';
import { nextDelayMs } from './retry-policy';
import { WebhookHealth } from './webhook-health';

/**
 * Claims due deliveries in batches and attempts them, up to HUB_WEBHOOK_CONCURRENCY at once; the
 * outcomes are written in groups (OutcomeRecorder). Every replica
 * runs one; SKIP LOCKED and the lease keep them apart, and a lease that runs out (the process was
 * killed) puts the row back, so nothing accepted is lost (decision 0500).
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DeliveryWorker');
  private running = false;
  private inFlight = 0;
  private loop?: Promise<void>;
  private wake?: () => void;
  /** Set by poke(); a poke that lands while a claim runs must not be lost (that claim may not see the new rows). */
  private poked = false;
  /** Set by a poke that may mean plain rows wait for a claim (not a paced one's): the intake leases none until a claim looked. */
  private plainPoked = false;
  /** The loop waits for room (too many attempts in flight to claim a batch): finished attempts wake it. */
  private waitingForRoom = false;
  private stopHousekeeping?: () => void;
  private stopPlanCheck?: () => void;
  private planCheck?: Promise<unknown>;
  /** The housekeeping pass running, if any: one at a time, and awaited at shutdown. */
  private keeping?: Promise<void>;
  /** Whether any webhook has delivery options (looked up every second): the paced claim runs only then. */
  private controlled = false;
  private lastOptionsLook = 0;
  private pacedWake?: NodeJS.Timeout;
  private readonly heldHeads: HeldHeadLook;
  private readonly held: InFlight;
  /** Set while a wake is due because a quarter of a cap was freed (decision 0505); one per 10 ms at most. */
  private roomWake?: NodeJS.Timeout;
  /**
   * The last plain claim took fewer rows than it had room for: no due plain row it could take was
   * left (decision 0510). The intake may then lease the rows it writes.
   */
  private drained = false;
  /** Slots promised to intake statements running (reserveLease). */
  private reserved = 0;
  private readonly housekeeping: DeliveryHousekeeping;

  constructor(
    private readonly attempts: DeliveryAttempts,
    private readonly health: WebhookHealth,
    private readonly outcomes: OutcomeRecorder,
    private readonly metrics: DeliveryMetrics,
    private readonly paced: PacedClaim,
    @InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource,
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
    wake: DeliveryWake,
  ) {
    wake.listen(this);
    this.heldHeads = new HeldHeadLook(config.HUB_WEBHOOK_POLL_MS);
    this.held = new InFlight(
      config.HUB_WEBHOOK_MAX_IN_FLIGHT_PER_WEBHOOK,
      config.maxInFlightPerUser,
      config.HUB_WEBHOOK_FAILING_PAUSE_MAX_MS,
    );
    this.housekeeping = new DeliveryHousekeeping(this.ds, config.HUB_WEBHOOK_LOG_RETENTION_DAYS);
  }

  onApplicationBootstrap(): void {
    this.running = true;
    this.loop = this.run();
    // Beside the claim loop, not in it: the retention pass (tens of ms, more on a busy machine)
    // held the next claim behind it every 10 s (decision 0508).
    this.stopHousekeeping = repeatPass(
      () => (this.keeping ??= this.housekeeping.pass().finally(() => (this.keeping = undefined))),
      (err) => this.logger.warn({ err }, 'webhooks housekeeping failed'),
      { firstAfterMs: 0, everyMs: 10_000 },
    );
    // Every second: one small statement, and an ANALYZE when a table has doubled (decision 0510).
    this.stopPlanCheck = repeatPass(
      () =>
        (this.planCheck ??= DeliveryQueueStore.keepPlansFresh(this.ds.manager).finally(
          () => (this.planCheck = undefined),
        )),
      (err) => this.logger.warn({ err }, 'webhooks statistics check failed'),
      { firstAfterMs: 0, everyMs: 1000 },
    );
  }

  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    this.stopHousekeeping?.();
    this.stopPlanCheck?.();
    clearTimeout(this.pacedWake);
    clearTimeout(this.roomWake);
    this.wake?.();
    await this.loop;
    await this.keeping?.catch(() => undefined);
    // Attempts in flight finish (bounded by the timeout); their rows would come back anyway.
    while (this.inFlight > 0) await sleep(20);
  }

  /**
   * New rows were queued: look now rather than at the next poll. With the owners of the new rows'
   * webhooks: none is looked for while every one of them is held at its in-flight cap (a claim
   * could take none of theirs); letting go of them wakes the worker (decision 0505).
   */
  poke(owners?: readonly string[], seq?: number): void {
    if (seq !== undefined) this.heldHeads.queued(seq);
    // Rows only of owners held at their cap: no claim could take them before letting one go pokes
    // again, so they leave the intake's lease alone (issue 43: a noisy user's every event, its owner
    // held, kept the victim's rows waiting for the claim loop).
    if (owners && owners.length > 0 && owners.every((o) => !this.held.hasRoomFor(o))) return;
    // Rows wait in the queue: none is leased at the intake before a claim has looked (decision 0510).
    this.drained = false;
    this.plainPoked = true;
    this.pokePaced();
  }

  /**
   * Only paced rows may be claimable (a paced attempt ended, a paced slot is due): the loop looks,
   * but the intake may still lease plain rows (issue 43: among a noisy user's paced attempts every
   * ending one made the victim's plain rows wait for the claim loop).
   */
  private pokePaced(owners?: readonly string[]): void {
    if (owners && owners.length > 0 && owners.every((o) => !this.held.hasRoomFor(o))) return;
    this.poked = true;
    this.wake?.();
  }

  /**
   * Room for the intake to lease the rows it writes (decision 0510): only when the last claim left
   * no due plain row it could take, and nothing was queued since that waits for a claim, so a row
   * leased at once is one the next claim would have taken anyway. The slots stay promised until
   * releaseLease.
   */
  reserveLease(): DirectLease | undefined {
    if (!this.running || !this.drained || this.plainPoked) return undefined;
    const room = this.config.HUB_WEBHOOK_CONCURRENCY - this.inFlight - this.reserved;
    if (room <= 0) return undefined;
    this.reserved += room;
    return { room, load: this.held.load() };
  }

  releaseLease(lease: DirectLease): void {
    this.reserved -= lease.room;
  }

  /** Rows the intake leased to this process: sent as claimed ones are. */
  startLeased(rows: ClaimedDelivery[]): void {
    if (rows.length === 0) return;
    // Counted in flight at once, so the next claim's room leaves them out.
    this.inFlight += rows.length;
    void this.webhooksOf(rows)
      .then(
        (webhooks) => this.start(rows, webhooks),
        // Leased: they come back when the lease runs out.
        (err: unknown) =>
          this.logger.warn({ err }, 'starting leased deliveries failed; they come back with their lease'),
      )
      .finally(() => (this.inFlight -= rows.length));
  }

  /** A webhook's delivery options changed here: look them up at once. */
  optionsChanged(): void {
    this.lastOptionsLook = 0;
    this.poke();
  }

  private async run(): Promise<void> {
    const concurrency = this.config.HUB_WEBHOOK_CONCURRENCY;
    while (this.running) {
      this.poked = false;
      this.plainPoked = false;
      // Claimed as many as there was room for: more may be due, so look again at once.
      let full = false;
      let room = concurrency - this.inFlight;
      // Claim in batches: a quarter of the room at least, unless idle (fewer, larger statements).
      this.waitingForRoom = !(room > 0 && (this.inFlight === 0 || room >= Math.ceil(concurrency / 4)));
      try {
        if (!this.waitingForRoom) {
          // Paced first: bounded by the webhooks' rates, and never starved by a full plain queue.
          room -= await this.claimPaced(room);
        }
        if (!this.waitingForRoom && room > 0) {
          const claimed = await DeliveryQueueStore.claim(this.ds.manager, room, this.held.load(), this.config);
          full = claimed.length === room;
          this.drained = !full;
          this.startClaimed(claimed);
        }
      } catch (err) {
        this.drained = false;
        this.logger.warn({ err }, 'claiming deliveries failed; retrying');
      }
      if (this.poked || full) continue;
      // Drained, or no room: new rows poke us (intake, a retry due soon), finished attempts wake us
      // when there is room again; the poll finds what came due otherwise (retries, lapsed leases).
      // Nothing else wakes the loop: a claim that finds nothing is a statement for nothing.
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, this.waitingForRoom ? 50 : this.config.HUB_WEBHOOK_POLL_MS);
        this.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  /** The deliveries of webhooks with options (decision 0503); answers how many were claimed. */
  private async claimPaced(room: number): Promise<number> {
    if (Date.now() - this.lastOptionsLook >= 1000) {
      this.lastOptionsLook = Date.now();
      this.controlled = await DeliveryOptionsStore.anyControlled(this.ds.manager);
    }
    if (!this.controlled || room <= 0) return 0;
    const batch = await this.paced.claim(room, this.held.load());
    this.startClaimed(batch.claimed);
    // The next slot of a webhook with more waiting: looked for then rather than at the next poll.
    const wakeInMs = minOf(batch.wakeInMs, this.heldHeads.after(batch.watermark));
    if (wakeInMs !== null && wakeInMs < this.config.HUB_WEBHOOK_POLL_MS) {
      clearTimeout(this.pacedWake);
      this.pacedWake = setTimeout(() => this.pokePaced(), wakeInMs).unref();
    }
    return batch.claimed.length;
  }

  /** The webhooks of claimed rows, in one statement. */
  private webhooksOf(rows: ClaimedDelivery[]): Promise<Map<string, WebhookRow>> {
    return WebhookStore.byIds(this.ds.manager, [...new Set(rows.map((d) => d.webhook_id))]);
  }

  /**
   * Claimed rows: counted in flight and under the caps at once, so the next claim leaves them out;
   * their webhooks are read beside the claim loop, not in it (issue 43: one more statement between
   * a row queued and the claim that takes it). A read that fails lets them go: they come back with
   * their lease.
   */
  private startClaimed(claimed: OwnedDelivery[]): void {
    if (claimed.length === 0) return;
    const holds = claimed.map((d) => this.hold(d.webhook_id, d.owner_id));
    this.inFlight += claimed.length;
    void this.webhooksOf(claimed)
      .then(
        (webhooks) => this.start(claimed, webhooks, holds),
        (err: unknown) => {
          for (const answered of holds) answered();
          this.logger.warn(
            { err },
            'reading the webhooks of claimed deliveries failed; they come back with their lease',
          );
        },
      )
      .finally(() => (this.inFlight -= claimed.length));
  }

  private start(claimed: ClaimedDelivery[], webhooks: Map<string, WebhookRow>, holds?: (() => void)[]): void {
    // Opened once per batch and webhook: the secret and the custom headers.
    const sealed = new Map<string, { secret: string | undefined; custom: CustomHeader[] }>();
    claimed.forEach((d, i) => {
      const webhook = webhooks.get(d.webhook_id);
      if (webhook && !sealed.has(webhook.id))
        sealed.set(webhook.id, { secret: this.attempts.secretOf(webhook), custom: this.attempts.customOf(webhook) });
      this.inFlight++;
      const answered = holds?.[i] ?? this.hold(d.webhook_id, webhook?.owner_id);
      void this.deliver(d, webhook, webhook && sealed.get(webhook.id), answered).finally(() => {
        answered();
        this.inFlight--;
        if (this.waitingForRoom && this.inFlight <= concurrencyFloor(this.config.HUB_WEBHOOK_CONCURRENCY))
          this.wake?.();
      });
    });
  }

  /**
   * An attempt counted under its webhook's and owner's caps; the answer lets it go (once). The caps
   * count the attempt until its receiver answered (decision 0507); the slot until its outcome is written.
   */
  private hold(webhookId: string, ownerId: string | undefined): () => void {
    this.held.started(webhookId, ownerId);
    let holding = true;
    return () => {
      if (!holding) return;
      holding = false;
      if (this.held.finished(webhookId, ownerId)) this.roomFreed();
    };
  }

  /**
   * Attempts ended under a cap that may have held due work back, and a quarter of it is free
   * (InFlight): look again soon. Gathered over 10 ms as well, so a user at its cap with a fast
   * receiver costs a claim per quarter of the cap at most, not one per attempt.
   */
  private roomFreed(): void {
    if (this.roomWake || !this.running) return;
    this.roomWake = setTimeout(() => {
      this.roomWake = undefined;
      this.poke();
    }, 10).unref();
  }

  private async deliver(
    d: ClaimedDelivery,
    webhook: WebhookRow | undefined,
    opened: { secret: string | undefined; custom: CustomHeader[] } | undefined,
    answered: () => void,
  ): Promise<void> {
    let traced: DeliveryTrace | undefined;
    try {
      if (!webhook || webhook.disabled !== 'false') return await DeliveryQueueStore.dropped(this.ds.manager, d.id);
      const trigger = d.recovery_id ? 'recovery' : 'scheduled';
      traced = DeliveryTrace.start(d, webhook.url);
      const send = () =>
        this.attempts.send(
          {
            webhook,
            deliveryId: d.id,
            eventPayload: d.payload,
            trigger,
            attempt: d.attempts,
            traceparent: traced?.traceparent,
          },
          opened?.secret,
          opened?.custom,
        );
      const { ok, log } = await (traced ? traced.within(send) : send());
      answered();
      // At once, before the outcome's writes: the next claim already leaves a failing webhook out.
      if (ok) this.held.succeeded(webhook.id);
      const pause = ok ? 0 : this.held.failed(webhook.id);
      const result = log.result;
      traced?.answered(result, ok);
      this.metrics.latency.observe(result.durationMs / 1000);
      this.metrics.attempts.inc({
        outcome: ok ? 'success' : result.status === null ? 'error' : `http_${Math.floor(result.status / 100)}xx`,
        trigger,
      });
      await this.outcomes.record(log, ok, d.paced);
      // An ordered webhook's next delivery may go once this one is settled.
      if (ok) {
        traced?.settled('delivered');
        return d.paced ? this.pokePaced([webhook.owner_id]) : undefined;
      }
      // A recovery sends once: a failure is final (the recovery counts it).
      const retryInMs = d.recovery_id
        ? null
        : nextDelayMs(this.config.retrySchedule, d.attempts, result.headers['retry-after']);
      const delay = await this.health.failed(
        {
          webhookId: webhook.id,
          deliveryId: d.id,
          why: result.error ?? `HTTP ${result.status}`,
          gone: result.status === 410,
          retryInMs,
        },
        d.paced,
      );
      if (delay !== null) this.metrics.retries.inc();
      traced?.settled(delay === null ? 'failed' : 'retry', delay);
      if (d.paced) this.pokePaced([webhook.owner_id]);
      // Looked for again before the next poll: when the webhook's pause ends, and when the retry
      // comes due if that is later (the schedule starts at 0 s).
      const lookIn = (ms: number) =>
        ms < this.config.HUB_WEBHOOK_POLL_MS &&
        setTimeout(() => (d.paced ? this.pokePaced([webhook.owner_id]) : this.poke([webhook.owner_id])), ms).unref();
      if (pause > 0) lookIn(pause);
      if (delay !== null && (delay > pause || pause === 0)) lookIn(delay);
    } catch (err) {
      // The row keeps its lease and comes back when it runs out.
      traced?.settled('error');
      this.logger.warn({ err, delivery: d.id }, 'delivery attempt could not be recorded');
    }
  }
}

/** Wake the claimer once this few attempts are left in flight (it claims the room in one batch). */
function concurrencyFloor(concurrency: number): number {
  return concurrency - Math.ceil(concurrency / 4);
}

const minOf = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : Math.min(a, b));
