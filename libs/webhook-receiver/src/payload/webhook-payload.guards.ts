import type { WebhookComment, WebhookDiscussion, WebhookPayload, WebhookUpdatedRef } from './webhook-payload.types';

/**
 * Narrowing by `event.scope`. Each guard matches its scope exactly (a comment event is not a
 * "discussion event"), and the discussion guards also check that the objects the scope
 * promises are there, so the narrowed type never lies.
 */

export type RepoEventPayload = WebhookPayload & { event: { scope: 'repo' } };
export type RepoContentEventPayload = WebhookPayload & {
  event: { scope: 'repo.content' };
  updatedRefs?: WebhookUpdatedRef[];
};
export type RepoConfigEventPayload = WebhookPayload & { event: { scope: 'repo.config' } };
export type DiscussionEventPayload = WebhookPayload & {
  event: { scope: 'discussion' };
  discussion: WebhookDiscussion;
};
export type DiscussionCommentEventPayload = WebhookPayload & {
  event: { scope: 'discussion.comment' };
  discussion: WebhookDiscussion;
  comment: WebhookComment;
};

export function isRepoEvent(payload: WebhookPayload): payload is RepoEventPayload {
  return payload.event.scope === 'repo';
}

export function isRepoContentEvent(payload: WebhookPayload): payload is RepoContentEventPayload {
  return payload.event.scope === 'repo.content';
}

export function isRepoConfigEvent(payload: WebhookPayload): payload is RepoConfigEventPayload {
  return payload.event.scope === 'repo.config';
}

export function isDiscussionEvent(payload: WebhookPayload): payload is DiscussionEventPayload {
  return payload.event.scope === 'discussion' && payload.discussion !== undefined;
}

export function isDiscussionCommentEvent(payload: WebhookPayload): payload is DiscussionCommentEventPayload {
  return (
    payload.event.scope === 'discussion.comment' && payload.discussion !== undefined && payload.comment !== undefined
  );
}
