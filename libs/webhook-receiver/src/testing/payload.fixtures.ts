import type { WebhookPayload } from '../payload/webhook-payload.types';

/**
 * Payloads shaped exactly as the hub sends version 3 (architecture section 6), one per scope.
 * Test-only: excluded from the package build.
 */

const HUB = 'https://hub.example';
const OWNER_ID = '64f0c0ffee0123456789abcd';

export function repoPayload(overrides: Partial<WebhookPayload> = {}): WebhookPayload {
  return {
    event: { action: 'update', scope: 'repo' },
    repo: {
      type: 'model',
      name: 'alice/tiny-model',
      id: '6500aaaabbbbccccddddeeee',
      private: false,
      url: { web: `${HUB}/alice/tiny-model`, api: `${HUB}/api/models/alice/tiny-model` },
      owner: { id: OWNER_ID },
    },
    webhook: { id: '6600aaaabbbbccccddddeeee', version: 3 },
    ...overrides,
  };
}

export function repoContentPayload(): WebhookPayload {
  const base = repoPayload();
  return {
    ...base,
    event: { action: 'update', scope: 'repo.content' },
    repo: { ...base.repo, headSha: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b' },
    updatedRefs: [
      {
        ref: 'refs/heads/main',
        oldSha: 'b5bb9d8014a0f9b1d61e21e796d78dccdf1352f2',
        newSha: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b',
      },
    ],
  };
}

export function repoConfigPayload(): WebhookPayload {
  return { ...repoPayload(), event: { action: 'update', scope: 'repo.config' }, updatedConfig: { private: true } };
}

export function discussionPayload(): WebhookPayload {
  return {
    ...repoPayload(),
    event: { action: 'create', scope: 'discussion' },
    discussion: {
      id: '6700aaaabbbbccccddddeeee',
      num: 4,
      title: 'Add a model card',
      url: { web: `${HUB}/alice/tiny-model/discussions/4`, api: `${HUB}/api/models/alice/tiny-model/discussions/4` },
      status: 'open',
      author: { id: OWNER_ID },
      isPullRequest: true,
      changes: { base: 'refs/heads/main' },
    },
  };
}

export function discussionCommentPayload(): WebhookPayload {
  return {
    ...discussionPayload(),
    event: { action: 'create', scope: 'discussion.comment' },
    comment: {
      id: '6800aaaabbbbccccddddeeee',
      author: { id: OWNER_ID },
      hidden: false,
      content: 'Looks good to me!',
      url: { web: `${HUB}/alice/tiny-model/discussions/4#6800aaaabbbbccccddddeeee` },
    },
  };
}

/** A shallow copy of `value` without `key`, to build payloads that miss a member. */
export function omit<T extends object, K extends keyof T>(value: T, key: K): Omit<T, K> {
  const copy = { ...value };
  delete copy[key];
  return copy;
}
