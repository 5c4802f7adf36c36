import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsString, Length, Matches } from 'class-validator';
import { TOKEN_PREFIX } from '../names';

/** Spec 4.2: POST /api/credentials/revoke. */
export class RevokeCredentialsDto {
  @ApiProperty({ type: [String], minItems: 1, maxItems: 1000, description: 'raw access token values, 1..200 characters each' })
  @IsArray({ message: 'credentials must be an array of strings' })
  @ArrayMinSize(1, { message: 'credentials must contain at least 1 item' })
  @ArrayMaxSize(1000, { message: 'credentials must contain at most 1000 items' })
  @IsString({ each: true, message: 'each item of credentials must be a string' })
  @Length(1, 200, { each: true, message: 'each item of credentials must be 1..200 characters long' })
  credentials!: string[];
}

/** Spec 4.2: POST /api/organizations/{name}/settings/tokens/revoke. */
export class OrgRevokeTokenDto {
  @ApiProperty({ pattern: `^${TOKEN_PREFIX}.*`, description: 'the raw access token to cut off from this organization' })
  @IsString({ message: 'token must be a string' })
  @Length(1, 200, { message: 'token must be 1..200 characters long' })
  @Matches(/^hf_/, { message: `token must start with "${TOKEN_PREFIX}"` })
  token!: string;
}
