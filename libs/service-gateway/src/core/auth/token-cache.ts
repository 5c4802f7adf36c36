import { type AuthInfo } from '@hub/credentials-contract';
import { TtlCache } from './ttl-cache';

/**
 * Verified tokens by SHA-256, kept for a short TTL so most requests need no RPC. Entries are
 * dropped at once when credentials announce a revocation (any replica) or when this gateway
 * forwards one.
 */
export class TokenCache extends TtlCache<string, AuthInfo> {
  deleteTokenIds(tokenIds: readonly string[]): void {
    this.markEvicted();
    const ids = new Set(tokenIds);
    for (const [hash, e] of this.entries) if (ids.has(e.value.token.id)) this.entries.delete(hash);
  }
}
