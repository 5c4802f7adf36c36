import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMinSize, IsArray, IsIn, IsOptional, Matches, ValidateNested } from 'class-validator';
import {
  AdminNamesQueryDto,
  type AdminPage,
  ClosedSchema,
  IsLabel,
  NAME_PATTERN,
  OBJECT_ID_PATTERN,
  ORG_PLANS,
  ORG_ROLES,
  type OrgPlan,
  type OrgRole,
  ROLE_PATTERN,
  rpc,
} from '@hub/contracts';

/*
 * Organizations and their members: the RPC requests, the views answered, and `OrganizationsRpc`.
 * The other areas (repositories, audit, resource groups, papers, MCP, SCIM, hub events) have their
 * descriptor beside their requests and views, in their own file.
 */

// The requests

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

// The views

const ID = { pattern: OBJECT_ID_PATTERN.source, example: '6561f0c2a1b2c3d4e5f60718' } as const;
/** Roles are the built-in ones or an organization's custom role names: a string, not an enum. */
const ROLE = { type: String, description: `${ORG_ROLES.join(', ')}, or a custom role name` } as const;

@ClosedSchema()
export class OrganizationView {
  @ApiProperty(ID)
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty()
  fullname!: string;

  @ApiProperty({ format: 'uri' })
  avatarUrl!: string;

  @ApiProperty({ enum: ORG_PLANS })
  plan!: OrgPlan;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
}

@ClosedSchema()
export class MemberView {
  @ApiProperty(ID)
  userId!: string;

  @ApiProperty({ description: 'the user name' })
  user!: string;

  @ApiProperty(ROLE)
  role!: OrgRole;

  @ApiProperty({ format: 'date-time' })
  addedAt!: string;
}

/** The caller's standing in one organization: what org-scoped authorization needs. */
@ClosedSchema()
export class OrganizationAccess {
  @ApiProperty({ type: OrganizationView })
  organization!: OrganizationView;

  /** null when the user is not a member. */
  @ApiProperty({ ...ROLE, nullable: true })
  role!: OrgRole | null;
}

@ClosedSchema()
export class UserMembership {
  @ApiProperty({ type: OrganizationView })
  organization!: OrganizationView;

  @ApiProperty(ROLE)
  role!: OrgRole;
}

/** An organization in the admin API's list (`organizations.organization.list`). */
@ClosedSchema()
export class AdminOrganizationView extends OrganizationView {
  @ApiProperty({ minimum: 0, description: 'members, suspended SCIM members left out' })
  memberCount!: number;
}

// The descriptors

/** RPCs `<service>.<resource>.<verb>` with their request and reply types, declared once (style.md rule 2). */
export const OrganizationsRpc = {
  Create: rpc<CreateOrganizationRpc, OrganizationView>('organizations.organization.create', CreateOrganizationRpc),
  /** The admin API's list: organizations by name, with their member counts. */
  List: rpc<AdminNamesQueryDto, AdminPage<AdminOrganizationView>>(
    'organizations.organization.list',
    AdminNamesQueryDto,
  ),
  AddMember: rpc<AddMemberRpc, MemberView>('organizations.member.add', AddMemberRpc),
  ListMembers: rpc<OrganizationRefRpc, MemberView[]>('organizations.member.list', OrganizationRefRpc),
  GetAccess: rpc<GetAccessRpc, OrganizationAccess>('organizations.access.get', GetAccessRpc),
  ListForUser: rpc<ListForUserRpc, UserMembership[]>('organizations.membership.list-for-user', ListForUserRpc),
  RemoveMember: rpc<MemberRefRpc, { removed: true }>('organizations.member.remove', MemberRefRpc),
  ChangeRole: rpc<ChangeRoleRpc, MemberView>('organizations.member.change-role', ChangeRoleRpc),
} as const;
