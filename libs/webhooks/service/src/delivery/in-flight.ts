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

  constructor(
    readonly perWebhook: number,
    readonly perOwner: number,
  ) {}

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

  load(): InFlightLoad {
    return {
      webhookIds: [...this.byWebhook.keys()],
      webhookCounts: [...this.byWebhook.values()],
      ownerIds: [...this.byOwner.keys()],
      ownerCounts: [...this.byOwner.values()],
    };
  }
}

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
