import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsISO8601, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { NOTIFICATION_MENTIONS, NOTIFICATION_READ_STATUSES, REPO_TYPES, type RepoType } from '@hub/contracts';

/** Spec 8: the page index bound (Number.MAX_SAFE_INTEGER). */
export const MAX_PAGE_INDEX = 9007199254740991;

/** Query strings carry booleans as text; anything but true/false stays a string and fails @IsBoolean. */
const toBoolean = ({ value }: { value: unknown }): unknown =>
  value === 'true' ? true : value === 'false' ? false : value;

/** The shared query parameters of spec 4.1 (the filters of the four notification operations). */
const P_BOUND = `p must be an integer from 0 to ${MAX_PAGE_INDEX}`;

export class NotificationFilters {
  @ApiPropertyOptional({ minimum: 0, maximum: MAX_PAGE_INDEX, default: 0, description: 'page index' })
  @IsOptional()
  @Type(() => Number)
  // One message for every way out of the bound: `p=abc` fails all three checks at once.
  @IsInt({ message: P_BOUND })
  @Min(0, { message: P_BOUND })
  @Max(MAX_PAGE_INDEX, { message: P_BOUND })
  p?: number;

  @ApiPropertyOptional({ enum: NOTIFICATION_READ_STATUSES, default: 'all' })
  @IsOptional()
  @IsIn(NOTIFICATION_READ_STATUSES, { message: `readStatus must be one of ${NOTIFICATION_READ_STATUSES.join(', ')}` })
  readStatus?: (typeof NOTIFICATION_READ_STATUSES)[number];

  @ApiPropertyOptional({ enum: REPO_TYPES })
  @IsOptional()
  @IsIn(REPO_TYPES, { message: `repoType must be one of ${REPO_TYPES.join(', ')}` })
  repoType?: RepoType;

  @ApiPropertyOptional({ description: 'owner/name of a repository' })
  @IsOptional()
  @IsString()
  @Length(1, 200, { message: 'repoName must be 1 to 200 characters' })
  repoName?: string;

  @ApiPropertyOptional({ description: 'user name of a post or article author' })
  @IsOptional()
  @IsString()
  @Length(1, 200, { message: 'postAuthor must be 1 to 200 characters' })
  postAuthor?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @Length(1, 200, { message: 'paperId must be 1 to 200 characters' })
  paperId?: string;

  @ApiPropertyOptional({ description: 'id or slug of a community blog article' })
  @IsOptional()
  @IsString()
  @Length(1, 200, { message: 'articleId must be 1 to 200 characters' })
  articleId?: string;

  @ApiPropertyOptional({ enum: NOTIFICATION_MENTIONS, default: 'all' })
  @IsOptional()
  @IsIn(NOTIFICATION_MENTIONS, { message: `mention must be one of ${NOTIFICATION_MENTIONS.join(', ')}` })
  mention?: (typeof NOTIFICATION_MENTIONS)[number];

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'snapshot: only notifications updated at or before this instant',
  })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'lastUpdate must be an ISO 8601 date-time' })
  lastUpdate?: string;
}

/** The filters plus applyToAll (DELETE and mark-as-read). */
export class NotificationBulkQuery extends NotificationFilters {
  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'applyToAll must be true or false' })
  applyToAll?: boolean;
}
