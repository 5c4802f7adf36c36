/**
 * Webhook payload version 3, as the hub POSTs it (architecture section 6).
 * Receivers must accept additions, so every interface here describes the members we rely on;
 * the runtime validator lets unknown members through untouched.
 */

export const REPO_TYPES = ['dataset', 'model', 'space', 'bucket', 'kernel'] as const;
export type RepoType = (typeof REPO_TYPES)[number];

export const WEBHOOK_EVENT_SCOPES = [
  'repo',
  'repo.content',
  'repo.config',
  'discussion',
  'discussion.comment',
] as const;
export type KnownWebhookEventScope = (typeof WEBHOOK_EVENT_SCOPES)[number];
/**
 * A scope the hub may add later is still a valid delivery (receivers accept additions); the
 * `Record<never, never>` intersection keeps editor completion for the known ones.
 */
export type WebhookEventScope = KnownWebhookEventScope | (string & Record<never, never>);

export const DISCUSSION_STATUSES = ['open', 'closed', 'draft', 'merged'] as const;
export type DiscussionStatus = (typeof DISCUSSION_STATUSES)[number];

export interface WebhookEvent {
  /** e.g. `create`, `update`, `delete`, `move`; any string is accepted. */
  action: string;
  /** Sent by this hub; spec 4.8 promises only `action`. */
  scope?: WebhookEventScope;
}

/** Either member may be missing (the Python client's own payload model makes `api` optional). */
export interface WebhookUrl {
  web?: string;
  api?: string;
}

export interface WebhookAuthorRef {
  id: string;
}

export interface WebhookRepo {
  /** The one member spec 4.8 promises; the others are checked only where present. */
  type: RepoType;
  /** `owner/name` */
  name?: string;
  id?: string;
  private?: boolean;
  url?: WebhookUrl;
  owner?: WebhookAuthorRef;
  /** Commit the repo's main ref points at after the event, when the hub knows it. */
  headSha?: string;
}

export interface WebhookDiscussion {
  id: string;
  num: number;
  title: string;
  url: WebhookUrl;
  status: DiscussionStatus;
  author: WebhookAuthorRef;
  isPullRequest: boolean;
  changes?: { base: string };
}

export interface WebhookComment {
  id: string;
  author: WebhookAuthorRef;
  hidden: boolean;
  content?: string;
  url: { web: string };
}

export interface WebhookUpdatedRef {
  ref: string;
  /** null when the ref was created */
  oldSha: string | null;
  /** null when the ref was deleted */
  newSha: string | null;
}

export interface WebhookPayload {
  event: WebhookEvent;
  repo: WebhookRepo;
  discussion?: WebhookDiscussion;
  comment?: WebhookComment;
  updatedRefs?: WebhookUpdatedRef[];
  updatedConfig?: { private?: boolean };
  movedTo?: { name: string; owner: WebhookAuthorRef };
  webhook?: { id?: string; version?: number };
}
