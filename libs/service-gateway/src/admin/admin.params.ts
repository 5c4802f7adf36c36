import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { NAME_PATTERN, OBJECT_ID_PATTERN } from '@hub/contracts';
import { OrgNameParam } from '../core';

export class MemberParam extends OrgNameParam {
  @ApiProperty({ description: 'the user name' })
  @Matches(NAME_PATTERN, { message: 'user must be a user name' })
  user!: string;
}

/** `/admin/organizations/{name}/resource-groups/{resourceGroupId}…`. */
export class ResourceGroupParam extends OrgNameParam {
  @ApiProperty({ pattern: OBJECT_ID_PATTERN.source })
  @Matches(OBJECT_ID_PATTERN, { message: 'resourceGroupId must be a 24-character hexadecimal id' })
  resourceGroupId!: string;
}

export class ResourceGroupUserParam extends ResourceGroupParam {
  @ApiProperty({ description: 'the user name' })
  @Matches(NAME_PATTERN, { message: 'user must be a user name' })
  user!: string;
}
