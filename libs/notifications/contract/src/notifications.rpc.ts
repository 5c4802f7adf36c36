import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  DISCUSSION_STATUSES,
  type DiscussionStatus,
  NOTIFICATION_MENTIONS,
  NOTIFICATION_READ_STATUSES,
  OBJECT_ID_PATTERN,
  REPO_TYPES,
  rpc,
  type RepoType,
} from '@hub/contracts';
import { type NotificationSettingsView, UpdateNotificationSettingsDto } from './notification-settings.dto';
import { OwnSettingsRpc, UpdateWatchDto, type WatchListView } from './watch.dto';

/*
 * The inbox's contract (spec 4.1, 2.6): its query, bodies and RPC requests, the items and the page
 * as answered, the poll's If-None-Match rule, and `NotificationsRpc`. Settings and watch lists have
 * their bodies and views in their own files beside this one.
 */

// The query (spec 4.1)

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

// The bodies and the RPC requests

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

// The items and the page as answered (spec 2.6)

/** Spec 2.6 Participant. */
export class NotificationParticipant {
  @ApiProperty({ pattern: '^[0-9a-f]{24}$' }) _id!: string;
  @ApiProperty() avatar!: string;
  @ApiProperty() user!: string;
}

export class NotificationRepo {
  @ApiProperty() name!: string;
  @ApiProperty({ enum: REPO_TYPES }) type!: RepoType;
}

class ItemBase {
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty() read!: boolean;
  @ApiPropertyOptional() discussionEventId?: string;
}

export class PaperRef {
  @ApiProperty() _id!: string;
  @ApiProperty() title!: string;
}
export class PaperDiscussionRef {
  @ApiProperty() id!: string;
  @ApiProperty({ type: [NotificationParticipant] }) participating!: NotificationParticipant[];
  @ApiProperty() paperId!: string;
}
export class PaperNotification extends ItemBase {
  @ApiProperty({ enum: ['paper'] }) type!: 'paper';
  @ApiProperty({ type: PaperRef }) paper!: PaperRef;
  @ApiProperty({ type: PaperDiscussionRef }) paperDiscussion!: PaperDiscussionRef;
}

export class RepoDiscussionRef {
  @ApiProperty() num!: number;
  @ApiProperty() title!: string;
  @ApiProperty({ enum: DISCUSSION_STATUSES }) status!: DiscussionStatus;
  @ApiProperty() id!: string;
  @ApiProperty() isPullRequest!: boolean;
  @ApiProperty({ type: [NotificationParticipant] }) participating!: NotificationParticipant[];
}
export class RepoNotification extends ItemBase {
  @ApiProperty({ enum: ['repo'] }) type!: 'repo';
  @ApiProperty({ type: NotificationRepo }) repo!: NotificationRepo;
  @ApiProperty({ type: RepoDiscussionRef }) discussion!: RepoDiscussionRef;
}

export class PostRef {
  @ApiProperty() id!: string;
  @ApiProperty() slug!: string;
  @ApiProperty() authorName!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ type: [NotificationParticipant] }) participating!: NotificationParticipant[];
}
export class PostNotification extends ItemBase {
  @ApiProperty({ enum: ['post'] }) type!: 'post';
  @ApiProperty({ type: PostRef }) post!: PostRef;
}

export class BlogRef {
  @ApiProperty() id!: string;
  @ApiProperty() slug!: string;
  @ApiProperty() title!: string;
  @ApiPropertyOptional() canonical?: boolean;
  @ApiPropertyOptional() authorName?: string;
  @ApiProperty({ type: [NotificationParticipant] }) participating!: NotificationParticipant[];
}
export class BlogNotification extends ItemBase {
  @ApiProperty({ enum: ['community_blog'] }) type!: 'community_blog';
  @ApiProperty({ type: BlogRef }) blog!: BlogRef;
}

export type NotificationItem = PaperNotification | RepoNotification | PostNotification | BlogNotification;
export const NOTIFICATION_ITEM_CLASSES = [PaperNotification, RepoNotification, PostNotification, BlogNotification];

export class NotificationCounts {
  @ApiProperty({ description: 'notifications matching the filters (what paging walks through)' }) view!: number;
  @ApiProperty({ description: 'unread notifications of the user, whatever the filters' }) unread!: number;
  @ApiProperty({ description: 'every notification of the user' }) all!: number;
}

/** What notifications.inbox.list answers: a page, or "not modified". */
export interface NotificationsPage {
  notModified: boolean;
  etag: string;
  lastModified: string;
  page?: NotificationsListView;
}

/** GET /api/notifications (spec 4.1): a page of the four 2.6 shapes with the counts. */
export class NotificationsListView {
  @ApiProperty({ type: 'array', items: { oneOf: NOTIFICATION_ITEM_CLASSES.map((c) => ({ $ref: getSchemaPath(c) })) } })
  notifications!: NotificationItem[];

  @ApiProperty({ type: NotificationCounts })
  count!: NotificationCounts;

  @ApiProperty({ description: 'index of the first item of this page among the `view` matching ones' })
  start!: number;
}

// A poll's conditions

/** The conditional headers of a poll of the inbox, as the client sent them. */
export interface InboxConditions {
  ifNoneMatch?: string;
  ifModifiedSince?: string;
}

/**
 * Whether the client already holds the page whose validators are these: If-None-Match decides
 * when present (weak comparison, `*` matches), else If-Modified-Since at whole seconds, as HTTP
 * dates carry. The notifications service and the gateway's poll cache answer by the same rule.
 */
export function inboxNotModified(etag: string, changedAtMs: number, c: InboxConditions): boolean {
  if (c.ifNoneMatch !== undefined) {
    return c.ifNoneMatch.split(',').some((t) => t.trim() === '*' || t.trim() === etag || `W/${t.trim()}` === etag);
  }
  if (c.ifModifiedSince !== undefined) {
    const since = Date.parse(c.ifModifiedSince);
    return !Number.isNaN(since) && Math.floor(changedAtMs / 1000) * 1000 <= since;
  }
  return false;
}

// The descriptors

/** The notifications service's RPCs; every one acts on the caller's own data (ctx.userId). */
export const NotificationsRpc = {
  List: rpc<ListNotificationsRpc, NotificationsPage>('notifications.inbox.list', ListNotificationsRpc),
  Mark: rpc<BulkNotificationsRpc, BulkNotificationsResult>('notifications.inbox.mark', BulkNotificationsRpc),
  Delete: rpc<BulkNotificationsRpc, BulkNotificationsResult>('notifications.inbox.delete', BulkNotificationsRpc),
  GetSettings: rpc<OwnSettingsRpc, NotificationSettingsView>('notifications.settings.get', OwnSettingsRpc),
  UpdateSettings: rpc<UpdateNotificationSettingsDto, NotificationSettingsView>(
    'notifications.settings.update',
    UpdateNotificationSettingsDto,
  ),
  GetWatch: rpc<OwnSettingsRpc, WatchListView>('notifications.watch.get', OwnSettingsRpc),
  UpdateWatch: rpc<UpdateWatchDto, WatchListView>('notifications.watch.update', UpdateWatchDto),
} as const;
