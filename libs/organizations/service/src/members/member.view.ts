import { type MemberView } from '@hub/organizations-contract';
import { type MemberEntity } from './member.entity';

export function toMemberView(m: MemberEntity): MemberView {
  return { userId: m.userId, user: m.userName, role: m.role, addedAt: m.createdAt.toISOString() };
}
