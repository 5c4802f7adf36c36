import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length, Matches } from 'class-validator';
import { TOKEN_PREFIX, IsStringList } from '@hub/contracts';

/** Spec 4.2: POST /api/credentials/revoke. */
export class RevokeCredentialsDto {
  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: 1000,
    description: 'raw access token values, 1..200 characters each',
  })
  @IsStringList({ minItems: 1, maxItems: 1000, minLength: 1, maxLength: 200 })
  credentials!: string[];
}

/** Spec 4.2: POST /api/organizations/{name}/settings/tokens/revoke. */
export class OrgRevokeTokenDto {
  @ApiProperty({ pattern: `^${TOKEN_PREFIX}.*`, description: 'the raw access token to cut off from this organization' })
  // Bottom-up: the type is checked first, then the length, then the prefix.
  @Matches(/^hf_/, { message: `token must start with "${TOKEN_PREFIX}"` })
  @Length(1, 200, { message: 'token must be 1..200 characters long' })
  @IsString({ message: 'token must be a string' })
  token!: string;
}
