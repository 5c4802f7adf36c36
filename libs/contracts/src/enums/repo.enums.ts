export const REPO_TYPES = ['dataset', 'model', 'space', 'bucket', 'kernel'] as const;
export type RepoType = (typeof REPO_TYPES)[number];

export const WATCHED_TYPES = [...REPO_TYPES, 'user', 'org'] as const;
export type WatchedType = (typeof WATCHED_TYPES)[number];

export const WEBHOOK_DOMAINS = ['repo', 'discussion'] as const;
export type WebhookDomain = (typeof WEBHOOK_DOMAINS)[number];

export const WEBHOOK_EVENT_SCOPES = [
  'repo',
  'repo.content',
  'repo.config',
  'discussion',
  'discussion.comment',
] as const;
export type WebhookEventScope = (typeof WEBHOOK_EVENT_SCOPES)[number];

export const DISCUSSION_STATUSES = ['draft', 'open', 'closed', 'merged'] as const;
export type DiscussionStatus = (typeof DISCUSSION_STATUSES)[number];

export const REPO_VISIBILITIES = ['public', 'private', 'protected'] as const;
export type RepoVisibility = (typeof REPO_VISIBILITIES)[number];

export const NOTIFICATION_TYPES = ['paper', 'repo', 'post', 'community_blog'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const WATCH_ITEM_TYPES = ['org', 'user', 'repo'] as const;
export type WatchItemType = (typeof WATCH_ITEM_TYPES)[number];

export const REPO_USAGE_SORTS = ['storage', 'updatedAt'] as const;
export const SORT_DIRECTIONS = ['asc', 'desc'] as const;

export const NOTIFICATION_READ_STATUSES = ['all', 'unread'] as const;
export const NOTIFICATION_MENTIONS = ['all', 'participating', 'mentions'] as const;
