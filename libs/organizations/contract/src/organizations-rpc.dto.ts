import { Type } from 'class-transformer';
import { ArrayMinSize, IsArray, IsIn, IsOptional, Matches, ValidateNested } from 'class-validator';
import { IsLabel, NAME_PATTERN, OBJECT_ID_PATTERN, ORG_PLANS, type OrgPlan, ROLE_PATTERN } from '@hub/contracts';

export class MemberUserRef {
  @Matches(OBJECT_ID_PATTERN)
  id!: string;

  @Matches(NAME_PATTERN)
  name!: string;
}

export class CreateOrganizationRpc {
  @Matches(NAME_PATTERN, { message: 'name is not a valid organization name' })
  name!: string;

  @IsOptional()
  @IsLabel({ minLength: 0, maxLength: 200 })
  fullname?: string;

  @IsIn(ORG_PLANS)
  plan!: OrgPlan;

  @IsArray()
  @ArrayMinSize(1)
  @ValidateNested({ each: true })
  @Type(() => MemberUserRef)
  admins!: MemberUserRef[];
}

export class AddMemberRpc {
  @Matches(NAME_PATTERN)
  organization!: string;

  @ValidateNested()
  @Type(() => MemberUserRef)
  user!: MemberUserRef;

  @Matches(ROLE_PATTERN)
  role!: string;
}

export class OrganizationRefRpc {
  @Matches(NAME_PATTERN, { message: 'organization is not a valid organization name' })
  organization!: string;
}

export class GetAccessRpc extends OrganizationRefRpc {
  @Matches(OBJECT_ID_PATTERN)
  userId!: string;
}

export class ListForUserRpc {
  @Matches(OBJECT_ID_PATTERN)
  userId!: string;
}

/** A member by user id (admin API: remove, change role). */
export class MemberRefRpc extends OrganizationRefRpc {
  @Matches(OBJECT_ID_PATTERN)
  userId!: string;
}

export class ChangeRoleRpc extends MemberRefRpc {
  @Matches(ROLE_PATTERN)
  role!: string;
}
