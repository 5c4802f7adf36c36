import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsEmail, IsIn, IsInt, IsObject, IsOptional, IsString, Length, Matches, Min,
} from 'class-validator';
import { ORG_PLANS, REPO_TYPES, TOKEN_ROLES, type OrgPlan, type RepoType, type TokenRole } from '../enums';
import { NAME_PATTERN, NAME_RULE, REPO_ID_PATTERN } from '../names';
import { ROLE_PATTERN } from '../organizations';

export class AdminCreateUserDto {
  @ApiProperty({ pattern: NAME_PATTERN.source, description: NAME_RULE })
  @IsString({ message: 'name must be a string' })
  @Matches(NAME_PATTERN, { message: `name must be ${NAME_RULE}` })
  name!: string;

  @ApiProperty({ format: 'email' })
  @IsEmail({}, { message: 'email must be an e-mail address' })
  @Length(3, 254, { message: 'email must be 3..254 characters long' })
  email!: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional() @IsString({ message: 'fullname must be a string' }) @Length(0, 200, { message: 'fullname must be at most 200 characters' })
  fullname?: string;
}

export class AdminCreateTokenDto {
  @ApiProperty({ enum: TOKEN_ROLES })
  @IsIn(TOKEN_ROLES, { message: `role must be one of ${TOKEN_ROLES.join(', ')}` })
  role!: TokenRole;

  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional() @IsString({ message: 'displayName must be a string' }) @Length(1, 100, { message: 'displayName must be 1..100 characters long' })
  displayName?: string;
}

export class AdminCreateOrganizationDto {
  @ApiProperty({ pattern: NAME_PATTERN.source, description: NAME_RULE })
  @IsString({ message: 'name must be a string' })
  @Matches(NAME_PATTERN, { message: `name must be ${NAME_RULE}` })
  name!: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional() @IsString({ message: 'fullname must be a string' }) @Length(0, 200, { message: 'fullname must be at most 200 characters' })
  fullname?: string;

  @ApiProperty({ enum: ORG_PLANS })
  @IsIn(ORG_PLANS, { message: `plan must be one of ${ORG_PLANS.join(', ')}` })
  plan!: OrgPlan;

  @ApiProperty({ type: [String], minItems: 1, description: 'user names of the first admins' })
  @IsArray({ message: 'admins must be an array of user names' })
  @ArrayMinSize(1, { message: 'admins must contain at least 1 user' })
  @ArrayMaxSize(100, { message: 'admins must contain at most 100 users' })
  @Matches(NAME_PATTERN, { each: true, message: 'each item of admins must be a user name' })
  admins!: string[];
}

export class AdminAddMemberDto {
  @ApiProperty()
  @IsString({ message: 'user must be a string' })
  @Matches(NAME_PATTERN, { message: 'user must be a user name' })
  user!: string;

  @ApiProperty({ description: 'admin, write, contributor, read, no_access, or a custom role name' })
  @IsString({ message: 'role must be a string' })
  @Matches(ROLE_PATTERN, { message: 'role must be a role name (1..50 letters, digits, space, "_" or "-")' })
  role!: string;
}

export class AdminCreateRepoDto {
  @ApiProperty({ description: 'owner/name' })
  @IsString({ message: 'name must be a string' })
  @Matches(REPO_ID_PATTERN, { message: 'name must be of the form owner/name' })
  name!: string;

  @ApiProperty({ enum: REPO_TYPES })
  @IsIn(REPO_TYPES, { message: `type must be one of ${REPO_TYPES.join(', ')}` })
  type!: RepoType;

  @ApiProperty()
  @IsBoolean({ message: 'private must be a boolean' })
  private!: boolean;

  @ApiProperty({ minimum: 0, description: 'bytes used' })
  @IsInt({ message: 'storage must be an integer number of bytes' }) @Min(0, { message: 'storage must not be negative' })
  storage!: number;
}

export class AdminPublishEventDto {
  @ApiProperty({ example: 'hub.events.repo.update' })
  @IsString({ message: 'subject must be a string' })
  @Matches(/^hub\.events\.(repo|discussion|paper|post|blog)(\.[a-z_]+)+$/, {
    message: 'subject must be a hub.events.<repo|discussion|paper|post|blog>.… subject',
  })
  subject!: string;

  @ApiProperty({ type: 'object', additionalProperties: true })
  @IsObject({ message: 'payload must be a JSON object' })
  payload!: Record<string, unknown>;
}
