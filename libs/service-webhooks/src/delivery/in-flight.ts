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
 */
export class InFlight {
  private readonly byWebhook = new Map<string, number>();
  private readonly byOwner = new Map<string, number>();

  constructor(
    readonly perWebhook: number,
    readonly perOwner: number,
  ) {}

  started(webhookId: string, ownerId: string | undefined): void {
    bump(this.byWebhook, webhookId, 1);
    if (ownerId !== undefined) bump(this.byOwner, ownerId, 1);
  }

  /**
   * One attempt ended. Answers whether its webhook or owner was at its cap: work left waiting for
   * that room may be claimable now (the claim saw it only as far as the cap allowed).
   */
  finished(webhookId: string, ownerId: string | undefined): boolean {
    const atCap =
      (this.byWebhook.get(webhookId) ?? 0) >= this.perWebhook ||
      (ownerId !== undefined && (this.byOwner.get(ownerId) ?? 0) >= this.perOwner);
    bump(this.byWebhook, webhookId, -1);
    if (ownerId !== undefined) bump(this.byOwner, ownerId, -1);
    return atCap;
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

function bump(counts: Map<string, number>, key: string, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}
