import { ApiProperty } from '@nestjs/swagger';
import { ORG_PLANS, ORG_ROLES, type OrgPlan, type OrgRole, ClosedSchema, OBJECT_ID_PATTERN } from '@hub/contracts';

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
