import { type AdminTokenView, type TokenView } from '@hub/credentials-contract';
import { type AccessTokenEntity } from './access-token.entity';

export function toTokenView(t: AccessTokenEntity): TokenView {
  return {
    id: t.id,
    userId: t.userId,
    displayName: t.displayName,
    role: t.role,
    last4: t.last4,
    createdAt: t.createdAt.toISOString(),
    lastUsedAt: t.lastUsedAt ? t.lastUsedAt.toISOString() : null,
  };
}

/** The operator's view: the same, and whether it still works. Never the value or the hash. */
export function toAdminTokenView(t: AccessTokenEntity): AdminTokenView {
  return { ...toTokenView(t), revokedAt: t.revokedAt ? t.revokedAt.toISOString() : null };
}
