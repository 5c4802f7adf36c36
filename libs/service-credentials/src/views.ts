import { type TokenView, type UserView } from '@hub/contracts';
import { type AccessTokenEntity, type UserEntity } from './entities';
import { avatarUrl } from './tokens';

export function toUserView(u: UserEntity, publicUrl: string): UserView {
  return {
    id: u.id,
    name: u.name,
    fullname: u.fullname,
    email: u.email,
    avatarUrl: avatarUrl(publicUrl, u.name),
    isPro: u.isPro,
    createdAt: u.createdAt.toISOString(),
  };
}

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
