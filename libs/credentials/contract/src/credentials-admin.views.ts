import { ApiProperty } from '@nestjs/swagger';
import { ClosedSchema, OBJECT_ID_PATTERN } from '@hub/contracts';
import { TokenView, UserView } from './credentials.rpc';

/** A user as the operator sees it: which organization's SCIM made the account, if one did (decision 0421). */
@ClosedSchema()
export class AdminUserView extends UserView {
  @ApiProperty({
    type: String,
    pattern: OBJECT_ID_PATTERN.source,
    nullable: true,
    description: "the organization whose SCIM provisioning made this account; null for the hub's own accounts",
  })
  managedByOrganizationId!: string | null;
}

/** A token as the operator sees it: never its value or its hash, and revoked ones too. */
@ClosedSchema()
export class AdminTokenView extends TokenView {
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'when it was revoked (leaked, or by the operator); null while it works',
  })
  revokedAt!: string | null;
}

/** POST /admin/users/{name}/tokens: the token's view plus, this once, its raw value. */
@ClosedSchema()
export class CreatedTokenAnswer extends TokenView {
  @ApiProperty({ description: 'the raw token: shown this once, never again' })
  token!: string;
}
