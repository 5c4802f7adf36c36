import { NotificationSourceEvents } from '@hub/notifications-contract';
import { PaperEvents, RepoEvents } from '@hub/organizations-contract';
import { parseCheckedPayload, parseEventPayload, validateEventPayload } from './payload-validation';

const ACTOR = { _id: 'abcdefabcdefabcdefabcdef', avatar: '', user: 'alice' };
const REPO = { type: 'model', name: 'alice/m' };
const DISCUSSION = { id: 'abcdefabcdefabcdefabcdef', num: 1, title: 't', status: 'open', isPullRequest: false };

/** Every consumer validates through here: a property the published schema requires must be there (issue 22). */
describe('event payload validation', () => {
  const discussion = NotificationSourceEvents.Discussion.payload;

  it('takes a complete discussion event', () => {
    expect(
      validateEventPayload(discussion, { actor: ACTOR, repo: REPO, discussion: DISCUSSION, mentions: [ACTOR] }),
    ).toMatchObject({ ok: true });
  });

  it.each([
    ['actor', { repo: REPO, discussion: DISCUSSION }],
    ['repo', { actor: ACTOR, discussion: DISCUSSION }],
    ['discussion', { actor: ACTOR, repo: REPO }],
  ])('refuses a discussion event without %s, naming it', (field, payload) => {
    expect(parseEventPayload(discussion, JSON.stringify(payload))).toEqual({
      ok: false,
      error: `${field} must be an object`,
      payload,
    });
    expect(validateEventPayload(discussion, { ...payload, [field]: null })).toMatchObject({
      ok: false,
      error: `nested property ${field} must be either object or array`,
    });
  });

  it('still reports the ordinary rules first, and lets optional nested objects be missing', () => {
    expect(validateEventPayload(discussion, { actor: { ...ACTOR, _id: 'x' }, repo: REPO })).toMatchObject({
      ok: false,
      error: 'actor._id must be a 24-character hex user id',
    });
    expect(
      validateEventPayload(discussion, { actor: ACTOR, repo: REPO, discussion: DISCUSSION, comment: null }),
    ).toMatchObject({ ok: true });
  });

  it('checks the required objects of nested objects too, and free-form payloads stay free', () => {
    expect(
      validateEventPayload(NotificationSourceEvents.Paper.payload, {
        actor: ACTOR,
        paper: { _id: 'abcdefabcdefabcdefabcdef', title: 't' },
      }),
    ).toMatchObject({ ok: false, error: 'paperDiscussion must be an object' });
    expect(validateEventPayload(RepoEvents.payload, { repo: REPO })).toMatchObject({
      ok: false,
      error: 'event must be an object',
    });
    expect(validateEventPayload(RepoEvents.payload, { event: { action: 'update' }, repo: REPO })).toMatchObject({
      ok: true,
    });
    expect(PaperEvents.Create.subject).toMatch(/paper\.create$/);
    expect(parseEventPayload(discussion, 'not json')).toMatchObject({ ok: false, error: 'payload is not JSON' });
  });

  it('parses a payload validated before into its class without the rules (decision 0512), and validates what is not an object', () => {
    const parsed = parseCheckedPayload(RepoEvents.payload, JSON.stringify({ event: { action: 'update' } }));
    expect(parsed).toMatchObject({ ok: true, value: { event: { action: 'update' } } });
    expect(parsed.ok && parsed.value).toBeInstanceOf(RepoEvents.payload);
    expect(parseCheckedPayload(RepoEvents.payload, '[1]')).toMatchObject({ ok: false });
    expect(parseCheckedPayload(RepoEvents.payload, 'not json')).toMatchObject({
      ok: false,
      error: 'payload is not JSON',
    });
  });
});
