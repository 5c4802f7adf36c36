import { avatarUrl } from '@hub/contracts';
import { type OrganizationView } from '@hub/organizations-contract';
import { type OrganizationEntity } from './organization.entity';

export function toOrganizationView(o: OrganizationEntity, publicUrl: string): OrganizationView {
  return {
    id: o.id,
    name: o.name,
    fullname: o.fullname,
    avatarUrl: avatarUrl(publicUrl, o.name),
    plan: o.plan,
    createdAt: o.createdAt.toISOString(),
  };
}
