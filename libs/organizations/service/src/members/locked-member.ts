import { type EntityManager } from 'typeorm';
import { type MemberRefRpc } from '@hub/organizations-contract';
import { type OrganizationEntity } from '../organizations/organization.entity';
import { OrganizationNotFoundError } from '../organizations/organizations.errors';
import { OrganizationsStore } from '../organizations/organizations.store';
import { type MemberEntity } from './member.entity';
import { MembersStore } from './members.store';
import { MemberNotFoundError } from './members.errors';

/** The organization, locked for the caller's transaction (keep-an-admin checks run one at a time), and the member. */
export async function lockedMember(
  m: EntityManager,
  dto: MemberRefRpc,
): Promise<{ org: OrganizationEntity; member: MemberEntity }> {
  const org = await OrganizationsStore.find(m, dto.organization, true);
  if (!org) throw new OrganizationNotFoundError(dto.organization);
  const member = await MembersStore.get(m, { organizationId: org.id, userId: dto.userId });
  if (!member) throw new MemberNotFoundError(org.name, dto.userId);
  return { org, member };
}
