import { MemberEntity } from './members/member.entity';
import { OrganizationEntity } from './organizations/organization.entity';

export { MemberEntity, OrganizationEntity };
export const ORGANIZATIONS_ENTITIES = [OrganizationEntity, MemberEntity];
