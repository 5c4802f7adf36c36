import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { NAME_PATTERN } from '@hub/contracts';

export class OrgNameParam {
  @ApiProperty()
  @Matches(NAME_PATTERN, { message: 'name must be an organization name' })
  name!: string;
}

export class UserNameParam {
  @ApiProperty()
  @Matches(NAME_PATTERN, { message: 'name must be a user name' })
  name!: string;
}
