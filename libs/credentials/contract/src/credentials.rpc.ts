import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import {
  AdminListTokensRpc,
  AdminNamesQueryDto,
  type AdminPage,
  ClosedSchema,
  IsLabel,
  NAME_PATTERN,
  OBJECT_ID_PATTERN,
  rpc,
  TOKEN_ROLES,
  type TokenRole,
} from '@hub/contracts';
import { AdminCreateUserDto } from './admin.dto';
import { type AdminTokenView, type AdminUserView } from './credentials-admin.views';
import { CreateSessionRpc, type SessionInfo, SessionRefRpc } from './console-session.dto';
import { ReleaseNameRpc, ReserveNameRpc } from './names-rpc.dto';

/*
 * Users and tokens: the RPC requests, the views answered, and `CredentialsRpc`. Names, console
 * sessions and the admin API's bodies and views sit in their own files beside this one.
 */

// The requests

/**
 * The token's SHA-256 (hex), never the token: raw tokens do not cross the bus (decision 0013),
 * and the credentials service stores only this hash anyway.
 */
export class VerifyTokenRpc {
  @Matches(/^[0-9a-f]{64}$/, { message: 'tokenHash must be a SHA-256 in lowercase hex' })
  tokenHash!: string;
}

export class GetUserRpc {
  @IsString()
  @Matches(NAME_PATTERN, { message: 'name is not a valid user name' })
  name!: string;
}

export class CreateTokenRpc {
  @IsString()
  @Matches(NAME_PATTERN, { message: 'user is not a valid user name' })
  user!: string;

  @IsIn(TOKEN_ROLES)
  role!: TokenRole;

  @IsOptional()
  @IsLabel({ minLength: 1, maxLength: 100 })
  displayName?: string;
}

/**
 * An organization admin (the caller in the context) cuts a member's token off from the
 * organization: the token by raw value or by id, exactly one of the two.
 */
export class RevokeMemberTokenRpc {
  @IsOptional()
  @Length(1, 200)
  @IsString()
  token?: string;

  @IsOptional()
  @Matches(OBJECT_ID_PATTERN, { message: 'tokenId must be a 24-character hexadecimal id' })
  tokenId?: string;

  @Matches(OBJECT_ID_PATTERN)
  organizationId!: string;

  @Matches(NAME_PATTERN)
  organizationName!: string;
}

/** One organization-scoped revocation, once the rules passed (the credentials service's own step). */
export class RevokeForOrgRpc {
  @Matches(OBJECT_ID_PATTERN)
  tokenId!: string;

  @Matches(OBJECT_ID_PATTERN)
  organizationId!: string;

  @IsString()
  organizationName!: string;
}

export class RevokeLeakedRpc {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @Length(1, 200, { each: true })
  credentials!: string[];
}

/**
 * SCIM provisioning (organizations asks, decision 0421): always a new account managed by the
 * organization, its hub name derived from the identity provider's userName. Never an existing user.
 */
export class ProvisionUserRpc {
  @IsString()
  @Matches(OBJECT_ID_PATTERN, { message: 'organizationId must be an object id' })
  organizationId!: string;

  @IsString()
  @Matches(NAME_PATTERN, { message: 'organization is not a valid organization name' })
  organization!: string;

  @IsString()
  @Length(1, 256)
  userName!: string;

  @IsOptional()
  @IsString()
  @Length(3, 254)
  email?: string;

  @IsOptional()
  @IsLabel({ minLength: 0, maxLength: 200 })
  fullname?: string;

  /**
   * The account this organization provisioned for the same userName before deprovisioning it: given
   * back when it still exists and is still managed by this organization, else a new one is made.
   */
  @IsOptional()
  @IsString()
  @Matches(OBJECT_ID_PATTERN, { message: 'formerUserId must be an object id' })
  formerUserId?: string;
}

/** `credentials.token.revoke-by-id` (issue 42 item 11, decision 0807): the operator revokes one token of a user by its id. */
export class AdminRevokeTokenRpc {
  @IsString()
  @Matches(NAME_PATTERN, { message: 'user is not a valid user name' })
  user!: string;

  @IsString()
  @Length(1, 64, { message: 'tokenId must be 1..64 characters' })
  tokenId!: string;
}

// The views

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

// The descriptors

/** The credentials service's RPCs `credentials.<resource>.<verb>` with their request and reply types, declared once (style.md rule 2). */
export const CredentialsRpc = {
  CreateUser: rpc<AdminCreateUserDto, UserView>('credentials.user.create', AdminCreateUserDto),
  GetUser: rpc<GetUserRpc, UserView>('credentials.user.get', GetUserRpc),
  /** The admin API's lists: users by name, a user's tokens newest first (never a value or a hash). */
  ListUsers: rpc<AdminNamesQueryDto, AdminPage<AdminUserView>>('credentials.user.list', AdminNamesQueryDto),
  ListTokens: rpc<AdminListTokensRpc, AdminPage<AdminTokenView>>('credentials.token.list', AdminListTokensRpc),
  CreateToken: rpc<CreateTokenRpc, CreatedToken>('credentials.token.create', CreateTokenRpc),
  /** The admin API revokes one token of a user by its id (decision 0807); a revoked one is answered as it is. */
  RevokeById: rpc<AdminRevokeTokenRpc, AdminTokenView>('credentials.token.revoke-by-id', AdminRevokeTokenRpc),
  VerifyToken: rpc<VerifyTokenRpc, AuthInfo>('credentials.token.verify', VerifyTokenRpc),
  RevokeLeaked: rpc<RevokeLeakedRpc, { accepted: true }>('credentials.token.revoke-leaked', RevokeLeakedRpc),
  /** The whole organization revocation: token lookup, "not your own", "held by a member", the revocation. */
  RevokeForOrg: rpc<RevokeMemberTokenRpc, OrgRevocationView>('credentials.token.revoke-for-org', RevokeMemberTokenRpc),
  /** Users and organizations share one case-insensitive name space (409 when taken). */
  ReserveName: rpc<ReserveNameRpc, { reserved: true }>('credentials.name.reserve', ReserveNameRpc),
  ReleaseName: rpc<ReleaseNameRpc, { released: boolean }>('credentials.name.release', ReleaseNameRpc),
  /** SCIM provisioning: the user of that name (any case), or a new one (decision 0420). */
  ProvisionUser: rpc<ProvisionUserRpc, ProvisionedUser>('credentials.user.provision', ProvisionUserRpc),
  /** Console sessions (decision 0800): made from a verified token, checked on every request, ended by sign-out. */
  CreateSession: rpc<CreateSessionRpc, SessionInfo>('credentials.session.create', CreateSessionRpc),
  VerifySession: rpc<SessionRefRpc, SessionInfo>('credentials.session.verify', SessionRefRpc),
  EndSession: rpc<SessionRefRpc, { ended: boolean }>('credentials.session.end', SessionRefRpc),
} as const;
