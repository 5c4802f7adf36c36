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
    const start = now - (now % this.windowMs);
    if (start !== this.windowStart) {
      this.windowStart = start;
      this.windows = new Map();
    }
    const count = (this.windows.get(key) ?? 0) + 1;
    this.windows.set(key, count);
    return {
      allowed: count <= this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - count),
      resetSeconds: Math.ceil((start + this.windowMs - now) / 1000),
      windowSeconds: this.windowMs / 1000,
    };
  }
}
