import { ApiProperty } from '@nestjs/swagger';
import { TOKEN_ROLES, type TokenRole, ClosedSchema, OBJECT_ID_PATTERN } from '@hub/contracts';

const ID = { pattern: OBJECT_ID_PATTERN.source, example: '6561f0c2a1b2c3d4e5f60718' } as const;

@ClosedSchema()
export class UserView {
  @ApiProperty(ID)
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty()
  fullname!: string;

  @ApiProperty({ format: 'email' })
  email!: string;

  @ApiProperty({ format: 'uri' })
  avatarUrl!: string;

  @ApiProperty()
  isPro!: boolean;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
}

@ClosedSchema()
export class TokenView {
  @ApiProperty(ID)
  id!: string;

  @ApiProperty(ID)
  userId!: string;

  @ApiProperty()
  displayName!: string;

  @ApiProperty({ enum: TOKEN_ROLES })
  role!: TokenRole;

  @ApiProperty({ minLength: 4, maxLength: 4, description: 'the last four characters of the raw token' })
  last4!: string;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastUsedAt!: string | null;
}

/** What the gateway learns from a bearer token (and caches briefly). */
@ClosedSchema()
export class AuthInfo {
  @ApiProperty({ type: UserView })
  user!: UserView;

  @ApiProperty({ type: TokenView })
  token!: TokenView;

  /** Organizations that cut this token off (it keeps working elsewhere). */
  @ApiProperty({ type: [String], description: 'organizations that cut this token off' })
  revokedOrganizationIds!: string[];
}

/** The only place a raw token appears: right after creation. */
@ClosedSchema()
export class CreatedToken {
  @ApiProperty({ description: 'the raw token, shown this once' })
  token!: string;

  @ApiProperty({ type: TokenView })
  tokenInfo!: TokenView;
}

/** A token cut off from one organization (spec 4.2); it keeps working elsewhere. */
@ClosedSchema()
export class OrgRevocationView {
  @ApiProperty(ID)
  tokenId!: string;

  @ApiProperty({ description: 'the organization name' })
  organization!: string;

  @ApiProperty({ format: 'date-time' })
  revokedAt!: string;
}

/** The user SCIM provisioning found or created. */
export interface ProvisionedUser {
  user: UserView;
  created: boolean;
}
