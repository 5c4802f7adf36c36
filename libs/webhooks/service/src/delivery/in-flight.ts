/** What this process has in flight, as the claims take it (decision 0505): parallel arrays for unnest. */
export interface InFlightLoad {
  webhookIds: string[];
  webhookCounts: number[];
  ownerIds: string[];
  ownerCounts: number[];
}

/**
 * Attempts in flight in this process, per webhook and per owner (decision 0505). The claims leave
 * out what would take a webhook or a user past its cap, so a slow receiver holds at most
 * `perWebhook` of the process's slots and one user's webhooks at most `perOwner`. Kept in memory,
 * not counted in Postgres: counting leased rows needs an index on the lease, which every claim
 * would then write (no HOT update).
 *
 * A webhook or owner that reached its cap is "held": work may be waiting behind the cap. It is let
 * go once a quarter of its cap is free again, and only then is a claim worth making for it: one
 * claim per attempt ended made claims of a row or two each (bench:webhooks, one user at 1,000/s:
 * twice the transactions per delivery).
 */
export class InFlight {
  private readonly byWebhook = new Map<string, number>();
  private readonly byOwner = new Map<string, number>();
  private readonly heldWebhooks = new Set<string>();
  private readonly heldOwners = new Set<string>();

  /** Webhooks whose last attempt here failed: how many in a row, and until when they pause. */
  private readonly failing = new Map<string, { streak: number; until: number }>();

  constructor(
    readonly perWebhook: number,
    readonly perOwner: number,
    /** The longest pause of a failing webhook (0: no pause, decision 0505 addendum). */
    readonly maxPauseMs = 0,
    private readonly random: () => number = Math.random,
  ) {}

  /**
   * An attempt of this webhook failed (an error status, no answer, a timeout): its other due
   * deliveries wait, rather than drain into a receiver that is failing (issue 43: a noisy user's
   * failing backlog, sent as fast as the machine goes whenever its cap freed, took the CPU every
   * user's deliveries needed). The pause doubles with each failure in a row from 250 ms up to
   * `maxPauseMs`; failures of attempts already in flight during a pause count once. After it the
   * webhook probes with one attempt at a time until one succeeds. Each pause is drawn within ±20 %
   * of that, as retries are, never past the longest: webhooks that failed together (one receiver
   * timing out a user's attempts at once) do not all probe at the same moment again. Answers the
   * pause (ms).
   */
  failed(webhookId: string, now = Date.now()): number {
    if (this.maxPauseMs <= 0) return 0;
    const f = this.failing.get(webhookId);
    if (f && f.until > now) return f.until - now;
    const streak = (f?.streak ?? 0) + 1;
    const doubled = Math.min(this.maxPauseMs, FIRST_PAUSE_MS * 2 ** Math.min(streak - 1, 20));
    const pause = Math.min(this.maxPauseMs, Math.round(doubled * (0.8 + 0.4 * this.random())));
    this.failing.set(webhookId, { streak, until: now + pause });
    return pause;
  }

  /** An attempt of this webhook succeeded: it is not failing any more (its whole cap again). */
  succeeded(webhookId: string): void {
    this.failing.delete(webhookId);
  }

  started(webhookId: string, ownerId: string | undefined): void {
    if (bump(this.byWebhook, webhookId, 1) >= this.perWebhook) this.heldWebhooks.add(webhookId);
    if (ownerId !== undefined && bump(this.byOwner, ownerId, 1) >= this.perOwner) this.heldOwners.add(ownerId);
  }

  /**
   * One attempt ended. Answers whether it let its owner go, or its webhook while the owner has
   * room: held at its cap before, a quarter of the cap is free now, so work the claims left behind
   * may be claimed in one batch.
   */
  finished(webhookId: string, ownerId: string | undefined): boolean {
    const webhook = release(this.byWebhook, this.heldWebhooks, webhookId, this.perWebhook);
    if (ownerId === undefined) return webhook;
    const owner = release(this.byOwner, this.heldOwners, ownerId, this.perOwner);
    // A webhook let go while its owner is still held: a claim could take none of it yet.
    return owner || (webhook && !this.heldOwners.has(ownerId));
  }

  /** Whether a claim could take anything of this owner now: not held at the cap (decision 0505). */
  hasRoomFor(ownerId: string): boolean {
    return !this.heldOwners.has(ownerId);
  }

  /**
   * The counts the claims leave room by. A failing webhook counts as full while it pauses and as
   * one short of full after (one probe at a time); one that failed long ago is forgotten.
   */
  load(now = Date.now()): InFlightLoad {
    let webhooks: Map<string, number> = this.byWebhook;
    if (this.failing.size > 0) {
      webhooks = new Map(this.byWebhook);
      for (const [id, f] of this.failing) {
        if (f.until < now - FORGET_FAILING_MS) this.failing.delete(id);
        else {
          const floor = f.until > now ? this.perWebhook : this.perWebhook - 1;
          webhooks.set(id, Math.max(webhooks.get(id) ?? 0, floor));
        }
      }
    }
    return {
      webhookIds: [...webhooks.keys()],
      webhookCounts: [...webhooks.values()],
      ownerIds: [...this.byOwner.keys()],
      ownerCounts: [...this.byOwner.values()],
    };
  }
}

/** A failing webhook's first pause; each failure in a row doubles it. */
const FIRST_PAUSE_MS = 250;

/** A failing webhook with no attempt here for this long after its pause starts afresh. */
const FORGET_FAILING_MS = 600_000;

/** A quarter of the cap, at least one. */
function quarter(cap: number): number {
  return Math.max(1, Math.ceil(cap / 4));
}

function release(counts: Map<string, number>, held: Set<string>, key: string, cap: number): boolean {
  const n = bump(counts, key, -1);
  if (!held.has(key) || cap - n < quarter(cap)) return false;
  held.delete(key);
  return true;
}

function bump(counts: Map<string, number>, key: string, by: number): number {
  const n = (counts.get(key) ?? 0) + by;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
  return Math.max(0, n);
}
