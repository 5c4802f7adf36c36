import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { NAME_PATTERN, OBJECT_ID_PATTERN } from '@hub/contracts';

export class OrgNameParam {
  @ApiProperty()
  @Matches(NAME_PATTERN, { message: 'name must be an organization name' })
  name!: string;
}

export class TokenIdParam extends OrgNameParam {
  @ApiProperty({ pattern: OBJECT_ID_PATTERN.source })
  @Matches(OBJECT_ID_PATTERN, { message: 'tokenId must be a 24-character hexadecimal id' })
  tokenId!: string;
}

export class UserNameParam {
  @ApiProperty()
  @Matches(NAME_PATTERN, { message: 'name must be a user name' })
  name!: string;
}
