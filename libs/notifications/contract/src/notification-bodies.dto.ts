import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsOptional, Matches, ValidateNested } from 'class-validator';
import { OBJECT_ID_PATTERN } from '@hub/contracts';
import { NotificationBulkQuery, NotificationFilters } from './notification-filters.dto';

/** One request never names more threads than this (bounded work per call). */
export const MAX_DISCUSSION_IDS = 1000;

/** POST /api/notifications/mark-as-read body. */
export class MarkNotificationsDto {
  @ApiPropertyOptional({ type: [String], default: [], maxItems: MAX_DISCUSSION_IDS, description: '24-hex thread ids' })
  @IsOptional()
  @IsArray({ message: 'discussionIds must be an array' })
  @ArrayMaxSize(MAX_DISCUSSION_IDS, { message: `discussionIds must hold at most ${MAX_DISCUSSION_IDS} ids` })
  @Matches(OBJECT_ID_PATTERN, { each: true, message: 'discussionIds must hold 24-character hexadecimal ids' })
  discussionIds?: string[];

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean({ message: 'read must be true or false' })
  read?: boolean;
}

/** DELETE /api/notifications body (optional when applyToAll=true). */
export class DeleteNotificationsDto {
  @ApiPropertyOptional({ type: [String], minItems: 1, maxItems: MAX_DISCUSSION_IDS })
  @IsOptional()
  @IsArray({ message: 'discussionIds must be an array' })
  @ArrayMinSize(1, { message: 'discussionIds must hold at least one id' })
  @ArrayMaxSize(MAX_DISCUSSION_IDS, { message: `discussionIds must hold at most ${MAX_DISCUSSION_IDS} ids` })
  @Matches(OBJECT_ID_PATTERN, { each: true, message: 'discussionIds must hold 24-character hexadecimal ids' })
  discussionIds?: string[];
}

/** notifications.inbox.list: the caller is ctx.userId. */
export class ListNotificationsRpc {
  @ValidateNested()
  @Type(() => NotificationFilters)
  filters!: NotificationFilters;

  /** The client's If-None-Match (an ETag this service gave). */
  @IsOptional()
  @Matches(/^[\x20-\x7e]{1,200}$/)
  ifNoneMatch?: string;

  /** The client's If-Modified-Since, as an ISO instant. */
  @IsOptional()
  @Matches(/^[\x20-\x7e]{1,64}$/)
  ifModifiedSince?: string;
}

/** notifications.inbox.mark and .delete: ids, or every notification matching the filters. */
export class BulkNotificationsRpc {
  @ValidateNested()
  @Type(() => NotificationBulkQuery)
  query!: NotificationBulkQuery;

  @IsArray()
  @ArrayMaxSize(MAX_DISCUSSION_IDS)
  @Matches(OBJECT_ID_PATTERN, { each: true })
  discussionIds!: string[];

  @IsOptional()
  @IsBoolean()
  read?: boolean;
}

export class BulkNotificationsResult {
  @ApiProperty({ description: 'notifications changed' })
  changed!: number;
}
