import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { NAME_PATTERN } from '@hub/contracts';
import { OrgNameParam } from '@hub/service-gateway';
import { ResourceGroupParam } from '../organizations/resource-group.params';

export class MemberParam extends OrgNameParam {
  @ApiProperty({ description: 'the user name' })
  @Matches(NAME_PATTERN, { message: 'user must be a user name' })
  user!: string;
}

/** `/admin/organizations/{name}/resource-groups/{resourceGroupId}/users/{user}`. */
export class ResourceGroupUserParam extends ResourceGroupParam {
  @ApiProperty({ description: 'the user name' })
  @Matches(NAME_PATTERN, { message: 'user must be a user name' })
  user!: string;
}
