import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { TOKEN_ROLES, type TokenRole, NAME_PATTERN, OBJECT_ID_PATTERN, IsLabel } from '@hub/contracts';

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
