import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { NAME_PATTERN } from '@hub/contracts';
import { OrgNameParam } from '../core';
import { ResourceGroupParam } from '../organizations/resource-group.params';

export class MemberParam extends OrgNameParam {
  @ApiProperty({ description: 'the user name' })
  @Matches(NAME_PATTERN, { message: 'user must be a user name' })
  user!: string;
}

export class ResourceGroupUserParam extends ResourceGroupParam {
  @ApiProperty({ description: 'the user name' })
  @Matches(NAME_PATTERN, { message: 'user must be a user name' })
  user!: string;
}
