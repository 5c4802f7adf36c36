import { avatarUrl } from '@hub/contracts';
import { type UserView } from '@hub/credentials-contract';
import { type UserEntity } from './user.entity';

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
