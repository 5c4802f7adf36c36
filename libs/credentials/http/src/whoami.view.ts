import { ApiProperty } from '@nestjs/swagger';
import { ClosedSchema, OBJECT_ID_PATTERN, ORG_PLANS, TOKEN_ROLES } from '@hub/contracts';

/*
 * GET /api/whoami-v2 as the public clients read it (architecture section 6). Every field the
 * architecture names is here with its type; the billing fields beyond it keep the clients' own
 * types whole. Closed: an answer with any other field fails the end-to-end suites.
 */

const ID = { pattern: OBJECT_ID_PATTERN.source } as const;

@ClosedSchema()
export class WhoAmIOrg {
  @ApiProperty({ enum: ['org'] })
  type!: 'org';

  @ApiProperty(ID)
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty()
  fullname!: string;

  @ApiProperty({ type: String, format: 'email', nullable: true })
  email!: string | null;

  @ApiProperty({ format: 'uri' })
  avatarUrl!: string;

  @ApiProperty({ description: 'admin, write, contributor, read, no_access, or a custom role name' })
  roleInOrg!: string;

  @ApiProperty({ enum: ORG_PLANS })
  plan!: string;

  @ApiProperty()
  canPay!: boolean;

  @ApiProperty({ type: Number, nullable: true })
  periodEnd!: number | null;
}

@ClosedSchema()
export class WhoAmIAccessToken {
  @ApiProperty()
  displayName!: string;

  @ApiProperty({ enum: TOKEN_ROLES })
  role!: string;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
}

@ClosedSchema()
export class WhoAmIAuth {
  @ApiProperty({ enum: ['access_token'] })
  type!: 'access_token';

  @ApiProperty({ type: WhoAmIAccessToken })
  accessToken!: WhoAmIAccessToken;
}

@ClosedSchema()
export class WhoAmI {
  @ApiProperty({ enum: ['user'] })
  type!: 'user';

  @ApiProperty(ID)
  id!: string;

  @ApiProperty({ description: 'the Python client needs it' })
  name!: string;

  @ApiProperty()
  fullname!: string;

  @ApiProperty({ format: 'email' })
  email!: string;

  @ApiProperty()
  emailVerified!: boolean;

  @ApiProperty({ format: 'uri' })
  avatarUrl!: string;

  @ApiProperty()
  isPro!: boolean;

  @ApiProperty()
  canPay!: boolean;

  @ApiProperty({ type: Number, nullable: true })
  periodEnd!: number | null;

  @ApiProperty({ enum: ['postpaid', 'prepaid'] })
  billingMode!: 'postpaid' | 'prepaid';

  @ApiProperty({ type: [WhoAmIOrg] })
  orgs!: WhoAmIOrg[];

  @ApiProperty({ type: WhoAmIAuth })
  auth!: WhoAmIAuth;
}
