export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  windowSeconds: number;
}

/**
 * Fixed one-minute windows per key, in memory (per gateway replica). Old windows are swept
 * as new ones start, so memory follows the number of active clients.
 */
export class RateLimiter {
  private windows = new Map<string, number>();
  private windowStart = 0;

  constructor(
    readonly limit: number,
    private readonly windowMs = 60_000,
  ) {}

  hit(key: string, now = Date.now()): RateDecision {
    return this.decide(key, now, 1);
  }

  /** The decision the next hit would get, without counting one (allowed while under the limit). */
  peek(key: string, now = Date.now()): RateDecision {
    return this.decide(key, now, 0);
  }

  private decide(key: string, now: number, add: number): RateDecision {
    const start = now - (now % this.windowMs);
    if (start !== this.windowStart) {
      this.windowStart = start;
      this.windows = new Map();
    }
    const count = (this.windows.get(key) ?? 0) + add;
    if (add > 0) this.windows.set(key, count);
    return {
      allowed: add > 0 ? count <= this.limit : count < this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - count),
      resetSeconds: Math.ceil((start + this.windowMs - now) / 1000),
      windowSeconds: this.windowMs / 1000,
    };
  }
}
