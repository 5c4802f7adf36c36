import { type AuthInfo } from '@hub/contracts';

interface Entry {
  info: AuthInfo;
  expiresAt: number;
}

/**
 * Verified tokens by SHA-256, kept for a short TTL so most requests need no RPC. Entries are
 * dropped at once when credentials announce a revocation (any replica) or when this gateway
 * forwards one. Map order is insertion order: the oldest entry goes first when full.
 */
export class TokenCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxSize: number,
  ) {}

  get(hash: string, now = Date.now()): AuthInfo | undefined {
    const e = this.entries.get(hash);
    if (!e) return undefined;
    if (e.expiresAt <= now) {
      this.entries.delete(hash);
      return undefined;
    }
    return e.info;
  }

  set(hash: string, info: AuthInfo, now = Date.now()): void {
    if (this.ttlMs <= 0 || this.maxSize <= 0) return;
    if (this.entries.size >= this.maxSize) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(hash, { info, expiresAt: now + this.ttlMs });
  }

  deleteHash(hash: string): void {
    this.entries.delete(hash);
  }

  deleteTokenIds(tokenIds: readonly string[]): void {
    const ids = new Set(tokenIds);
    for (const [hash, e] of this.entries) if (ids.has(e.info.token.id)) this.entries.delete(hash);
  }

  get size(): number {
    return this.entries.size;
  }
}
