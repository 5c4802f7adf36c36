import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsObject, IsOptional, IsString, Matches, Min } from 'class-validator';
import {
  IsLabel,
  IsStringList,
  NAME_PATTERN,
  NAME_RULE,
  ORG_PLANS,
  REPO_ID_PATTERN,
  REPO_TYPES,
  ROLE_PATTERN,
  type OrgPlan,
  type RepoType,
  rpc,
} from '@hub/contracts';

/** The admin API's bodies for organizations, members, repositories and hub events (`/admin/…`). */
export class AdminCreateOrganizationDto {
  @ApiProperty({ pattern: NAME_PATTERN.source, description: NAME_RULE })
  @Matches(NAME_PATTERN, { message: `name must be ${NAME_RULE}` })
  @IsString({ message: 'name must be a string' })
  name!: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsLabel({ minLength: 0, maxLength: 200 })
  fullname?: string;

  @ApiProperty({ enum: ORG_PLANS })
  @IsIn(ORG_PLANS, { message: `plan must be one of ${ORG_PLANS.join(', ')}` })
  plan!: OrgPlan;

  @ApiProperty({ type: [String], minItems: 1, description: 'user names of the first admins' })
  @Matches(NAME_PATTERN, { each: true, message: 'each item of admins must be a user name' })
  @IsStringList({ minItems: 1, maxItems: 100, minLength: 1, maxLength: 96, noun: 'user' })
  admins!: string[];
}

export class AdminAddMemberDto {
  @ApiProperty()
  @Matches(NAME_PATTERN, { message: 'user must be a user name' })
  @IsString({ message: 'user must be a string' })
  user!: string;

  @ApiProperty({ description: 'admin, write, contributor, read, no_access, or a custom role name' })
  @Matches(ROLE_PATTERN, { message: 'role must be a role name (1..50 letters, digits, space, "_" or "-")' })
  @IsString({ message: 'role must be a string' })
  role!: string;
}

export class AdminCreateRepoDto {
  @ApiProperty({ description: 'owner/name' })
  @Matches(REPO_ID_PATTERN, { message: 'name must be of the form owner/name' })
  @IsString({ message: 'name must be a string' })
  name!: string;

  @ApiProperty({ enum: REPO_TYPES })
  @IsIn(REPO_TYPES, { message: `type must be one of ${REPO_TYPES.join(', ')}` })
  type!: RepoType;

  @ApiProperty()
  @IsBoolean({ message: 'private must be a boolean' })
  private!: boolean;

  @ApiProperty({ minimum: 0, description: 'bytes used' })
  @Min(0, { message: 'storage must not be negative' })
  @IsInt({ message: 'storage must be an integer number of bytes' })
  storage!: number;
}

export class AdminPublishEventDto {
  @ApiProperty({ example: 'hub.events.repo.update' })
  @Matches(/^hub\.events\.(repo|discussion|paper|post|blog)(\.[a-z_]+)+$/, {
    message: 'subject must be a hub.events.<repo|discussion|paper|post|blog>.… subject',
  })
  @IsString({ message: 'subject must be a string' })
  subject!: string;

  @ApiProperty({ type: 'object', additionalProperties: true })
  @IsObject({ message: 'payload must be a JSON object' })
  payload!: Record<string, unknown>;
}

/**
 * The admin API's "publish a hub event" (`POST /admin/events`): the organizations service
 * publishes it, so the gateway holds no right to publish on `hub.events.>` (decision 0013).
 */
export const HubEventsRpc = {
  Publish: rpc<AdminPublishEventDto, { subject: string; id: string }>(
    'organizations.hub-event.publish',
    AdminPublishEventDto,
  ),
} as const;
