import {
  discussionCommentPayload,
  discussionPayload,
  repoConfigPayload,
  repoContentPayload,
  repoPayload,
} from '../testing/payload.fixtures';
import { assertWebhookPayload, validateWebhookPayload } from './webhook-payload.validator';

/** A deep copy with one member replaced (or removed with `undefined`), by dotted path. */
function withMember(path: string, value: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(discussionCommentPayload())) as Record<string, unknown>;
  const keys = path.split('.');
  const last = keys.pop() as string;
  let target = copy;
  for (const key of keys) target = target[key] as Record<string, unknown>;
  if (value === undefined) delete target[last];
  else target[last] = value;
  return copy;
}

describe('validateWebhookPayload', () => {
  it.each([
    ['repo', repoPayload()],
    ['repo.content', repoContentPayload()],
    ['repo.config', repoConfigPayload()],
    ['discussion', discussionPayload()],
    ['discussion.comment', discussionCommentPayload()],
  ])('accepts a %s payload as the hub sends it', (_scope, payload) => {
    expect(validateWebhookPayload(payload)).toEqual({ ok: true, payload });
  });

  it('accepts members it does not know (the hub may add fields) and keeps them', () => {
    const payload = {
      ...repoPayload(),
      extra: { nested: true },
      event: { action: 'update', scope: 'repo', origin: 'ui' },
    };
    const result = validateWebhookPayload(payload);
    expect(result.ok && result.payload).toBe(payload);
  });

  it('accepts an action or a scope it does not know yet', () => {
    expect(validateWebhookPayload({ ...repoPayload(), event: { action: 'archive', scope: 'repo.future' } }).ok).toBe(
      true,
    );
  });

  it('accepts null shas in updatedRefs (created or deleted refs)', () => {
    const payload = { ...repoContentPayload(), updatedRefs: [{ ref: 'refs/tags/v1', oldSha: null, newSha: 'abc' }] };
    expect(validateWebhookPayload(payload).ok).toBe(true);
  });

  it.each([
    ['repo.type', undefined, 'repo.type must be one of dataset, model, space, bucket, kernel'],
    ['repo.type', 'notebook', 'repo.type must be one of dataset, model, space, bucket, kernel'],
    ['event.action', undefined, 'event.action must be a string'],
    ['event.action', 42, 'event.action must be a string'],
    ['event', 'update', 'event must be an object'],
    ['repo', undefined, 'repo must be an object'],
    ['repo.private', 'no', 'repo.private must be a boolean'],
    ['repo.url.api', 7, 'repo.url.api must be a string'],
    ['repo.id', 7, 'repo.id must be a string'],
    ['repo.owner', 'bob', 'repo.owner must be an object'],
    ['webhook.version', '3', 'webhook.version must be an integer'],
    ['discussion.num', 4.5, 'discussion.num must be an integer'],
    ['discussion.status', 'rejected', 'discussion.status must be one of open, closed, draft, merged'],
    ['discussion.changes.base', 7, 'discussion.changes.base must be a string'],
    ['comment.hidden', undefined, 'comment.hidden must be a boolean'],
    ['comment.url', [], 'comment.url must be an object'],
    ['updatedRefs', {}, 'updatedRefs must be an array'],
    ['movedTo', { name: 'bob/x' }, 'movedTo.owner must be an object'],
  ])('rejects %s = %p, naming the field', (path, value, message) => {
    expect(validateWebhookPayload(withMember(path, value))).toEqual({ ok: false, error: message });
  });

  it('names the element of an array that is wrong', () => {
    const payload = {
      ...repoContentPayload(),
      updatedRefs: [
        { ref: 'refs/heads/main', oldSha: 'a', newSha: 'b' },
        { ref: 'x', oldSha: 1, newSha: null },
      ],
    };
    expect(validateWebhookPayload(payload)).toEqual({
      ok: false,
      error: 'updatedRefs[1].oldSha must be a string or null',
    });
  });

  it.each([[null], [[]], ['{}'], [3]])('rejects %p as not an object', (value) => {
    expect(validateWebhookPayload(value)).toEqual({ ok: false, error: 'payload must be a JSON object' });
  });

  it('accepts any object with repo.type and event.action (spec 4.8 rule 2 promises nothing more)', () => {
    expect(validateWebhookPayload({ repo: { type: 'model' }, event: { action: 'update' } }).ok).toBe(true);
    expect(validateWebhookPayload(withMember('repo.url.api', undefined)).ok).toBe(true);
    expect(validateWebhookPayload(withMember('repo.id', undefined)).ok).toBe(true);
    expect(validateWebhookPayload(withMember('webhook', undefined)).ok).toBe(true);
  });

  it('assertWebhookPayload throws the same message', () => {
    expect(() => assertWebhookPayload({ repo: { type: 'model' } })).toThrow(new TypeError('event must be an object'));
    expect(() => assertWebhookPayload(repoPayload())).not.toThrow();
  });
});
