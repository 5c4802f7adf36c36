import { type MemberView, type OrganizationView } from '@hub/contracts';
import { type MemberEntity, type OrganizationEntity } from './entities';

export function toOrganizationView(o: OrganizationEntity, publicUrl: string): OrganizationView {
  return {
    id: o.id,
    name: o.name,
    fullname: o.fullname,
    avatarUrl: `${publicUrl.replace(/\/$/, '')}/avatars/${encodeURIComponent(o.name)}.svg`,
    plan: o.plan,
    createdAt: o.createdAt.toISOString(),
  };
}

export function toMemberView(m: MemberEntity): MemberView {
  return { userId: m.userId, user: m.userName, role: m.role, addedAt: m.createdAt.toISOString() };
}
