import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DISCUSSION_STATUSES, type DiscussionStatus, REPO_TYPES, type RepoType } from '@hub/contracts';

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
  page?: { notifications: NotificationItem[]; count: NotificationCounts; start: number };
}
