import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { OBJECT_ID_PATTERN } from '@hub/contracts';
import { OrgNameParam } from '@hub/service-gateway';

export class ResourceGroupParam extends OrgNameParam {
  @ApiProperty({ pattern: OBJECT_ID_PATTERN.source })
  @Matches(OBJECT_ID_PATTERN, { message: 'resourceGroupId must be a 24-character hexadecimal id' })
  resourceGroupId!: string;
}
