import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  DISCUSSION_STATUSES,
  type DiscussionStatus,
  event,
  eventFamily,
  OBJECT_ID_PATTERN,
  REPO_TYPES,
  type RepoType,
} from '@hub/contracts';

/** A user as a notification shows them (spec 2.6 Participant). */
export class EventUser {
  @Matches(OBJECT_ID_PATTERN, { message: '_id must be a 24-character hex user id' })
  _id!: string;

  @IsString()
  @Length(0, 500)
  avatar!: string;

  @IsString()
  @Length(1, 96)
  user!: string;
}

/**
 * What every event feeding notifications adds to the hub's own payload: who acted (never
 * notified), whom the text mentions, and an id that makes a replay a no-op (else the comment id,
 * else the bus msgId).
 */
export class NotificationEventExtras {
  @IsOptional()
  @IsString()
  @Length(1, 100)
  eventId?: string;

  @ValidateNested()
  @Type(() => EventUser)
  actor!: EventUser;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => EventUser)
  mentions?: EventUser[];
}

class EventRepoOwner {
  @IsString()
  @Length(1, 100)
  id!: string;
}

export class EventRepo {
  @IsIn(REPO_TYPES)
  type!: RepoType;

  @Matches(/^[^/\s]{1,96}\/[^/\s]{1,96}$/, { message: 'repo.name must be owner/name' })
  name!: string;

  @IsOptional()
  @IsString()
  id?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => EventRepoOwner)
  owner?: EventRepoOwner;

  /** A private repo's threads reach only who may read it: its owner and members of its organization (decision 0404). */
  @IsOptional()
  @IsBoolean()
  private?: boolean;
}

export class EventDiscussion {
  @Matches(OBJECT_ID_PATTERN, { message: 'discussion.id must be a 24-character hex id' })
  id!: string;

  @IsInt()
  @Min(0)
  num!: number;

  @IsString()
  @Length(1, 500)
  title!: string;

  @IsIn(DISCUSSION_STATUSES)
  status!: DiscussionStatus;

  @IsBoolean()
  isPullRequest!: boolean;
}

class EventComment {
  @IsString()
  @Length(1, 100)
  id!: string;
}

/** `hub.events.discussion.<action>` / `hub.events.discussion.comment.<action>`: webhook payload v3 plus the extras. */
export class DiscussionEventPayload extends NotificationEventExtras {
  @ValidateNested()
  @Type(() => EventRepo)
  repo!: EventRepo;

  @ValidateNested()
  @Type(() => EventDiscussion)
  discussion!: EventDiscussion;

  @IsOptional()
  @ValidateNested()
  @Type(() => EventComment)
  comment?: EventComment;
}

class EventPaper {
  @Matches(OBJECT_ID_PATTERN, { message: 'paper._id must be a 24-character hex id' })
  _id!: string;

  @IsString()
  @Length(1, 500)
  title!: string;

  /** Hub user ids of the paper's authors: their watchers hear of it. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(200)
  @Matches(OBJECT_ID_PATTERN, { each: true })
  authorIds?: string[];
}

class EventThreadRef {
  @Matches(OBJECT_ID_PATTERN, { message: 'id must be a 24-character hex id' })
  id!: string;
}

/** `hub.events.paper.<action>`: a paper discussion moved. */
export class PaperEventPayload extends NotificationEventExtras {
  @ValidateNested()
  @Type(() => EventPaper)
  paper!: EventPaper;

  @ValidateNested()
  @Type(() => EventThreadRef)
  paperDiscussion!: EventThreadRef;
}

class EventPost {
  @Matches(OBJECT_ID_PATTERN, { message: 'post.id must be a 24-character hex id' })
  id!: string;

  @IsString()
  @Length(1, 200)
  slug!: string;

  @IsString()
  @Length(1, 96)
  authorName!: string;

  @IsString()
  @Length(1, 500)
  title!: string;
}

/** `hub.events.post.<action>`: a post or a comment on it. */
export class PostEventPayload extends NotificationEventExtras {
  @ValidateNested()
  @Type(() => EventPost)
  post!: EventPost;
}

class EventBlog {
  @Matches(OBJECT_ID_PATTERN, { message: 'blog.id must be a 24-character hex id' })
  id!: string;

  @IsString()
  @Length(1, 200)
  slug!: string;

  @IsString()
  @Length(1, 500)
  title!: string;

  @IsOptional()
  @IsBoolean()
  canonical?: boolean;

  @IsOptional()
  @IsString()
  @Length(1, 96)
  authorName?: string;
}

/** `hub.events.blog.<action>`: a community blog article or a comment on it. */
export class BlogEventPayload extends NotificationEventExtras {
  @ValidateNested()
  @Type(() => EventBlog)
  blog!: EventBlog;
}

/** The hub events notifications consumes (each a family under `hub.events.<area>.>`). */
export const NotificationSourceEvents = {
  Discussion: eventFamily<DiscussionEventPayload>('hub.events.discussion', DiscussionEventPayload),
  // Comments on a paper's page; `hub.events.paper.create` (the paper itself) is organizations'.
  Paper: event<PaperEventPayload>('hub.events.paper.comment', PaperEventPayload),
  Post: eventFamily<PostEventPayload>('hub.events.post', PostEventPayload),
  Blog: eventFamily<BlogEventPayload>('hub.events.blog', BlogEventPayload),
} as const;
