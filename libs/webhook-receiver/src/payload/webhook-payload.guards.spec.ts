import {
  discussionCommentPayload,
  discussionPayload,
  omit,
  repoConfigPayload,
  repoContentPayload,
  repoPayload,
} from '../testing/payload.fixtures';
import {
  isDiscussionCommentEvent,
  isDiscussionEvent,
  isRepoConfigEvent,
  isRepoContentEvent,
  isRepoEvent,
} from './webhook-payload.guards';
import { WEBHOOK_EVENT_SCOPES } from './webhook-payload.types';

const guards = { isRepoEvent, isRepoContentEvent, isRepoConfigEvent, isDiscussionEvent, isDiscussionCommentEvent };
const payloads = {
  repo: repoPayload(),
  'repo.content': repoContentPayload(),
  'repo.config': repoConfigPayload(),
  discussion: discussionPayload(),
  'discussion.comment': discussionCommentPayload(),
};
const expectedGuard = {
  repo: 'isRepoEvent',
  'repo.content': 'isRepoContentEvent',
  'repo.config': 'isRepoConfigEvent',
  discussion: 'isDiscussionEvent',
  'discussion.comment': 'isDiscussionCommentEvent',
};

describe('payload narrowing helpers', () => {
  it('lists the five scopes of payload v3', () => {
    expect(WEBHOOK_EVENT_SCOPES).toEqual(['repo', 'repo.content', 'repo.config', 'discussion', 'discussion.comment']);
  });

  it.each(WEBHOOK_EVENT_SCOPES.map((scope) => [scope]))('exactly one guard matches a %s payload', (scope) => {
    const matching = Object.entries(guards)
      .filter(([, guard]) => guard(payloads[scope]))
      .map(([name]) => name);
    expect(matching).toEqual([expectedGuard[scope]]);
  });

  it('narrows so the discussion and comment can be read without checks', () => {
    const payload = discussionCommentPayload();
    if (!isDiscussionCommentEvent(payload)) throw new Error('expected a comment event');
    expect(`${payload.discussion.title}: ${payload.comment.content}`).toBe('Add a model card: Looks good to me!');
  });

  it('does not claim a discussion event whose discussion object is missing', () => {
    expect(isDiscussionEvent(omit(discussionPayload(), 'discussion'))).toBe(false);
    expect(isDiscussionCommentEvent(omit(discussionCommentPayload(), 'comment'))).toBe(false);
  });
});
