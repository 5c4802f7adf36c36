import { MemberEntity } from './member.entity';
import { OrganizationEntity } from './organization.entity';

export { MemberEntity, OrganizationEntity };
export const ORGANIZATIONS_ENTITIES = [OrganizationEntity, MemberEntity];
