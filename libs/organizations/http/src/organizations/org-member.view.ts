import { ApiProperty } from '@nestjs/swagger';
import { ClosedSchema, OBJECT_ID_PATTERN } from '@hub/contracts';

/** One entry of GET /api/organizations/{name}/members, in the hub's member-list shape. */
@ClosedSchema()
export class OrgMember {
  @ApiProperty({ pattern: OBJECT_ID_PATTERN.source, description: 'the user id' })
  _id!: string;

  @ApiProperty({ enum: ['user'] })
  type!: 'user';

  @ApiProperty({ description: 'the user name' })
  user!: string;

  @ApiProperty({ description: 'admin, write, contributor, read, no_access, or a custom role name' })
  role!: string;
}
