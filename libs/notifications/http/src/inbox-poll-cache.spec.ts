import { InboxPollCache, queryKey } from './inbox-poll-cache';

const v = (etag: string): { etag: string; lastModified: string } => ({
  etag,
  lastModified: 'Tue, 24 Nov 2026 03:00:00 GMT',
});

describe('InboxPollCache', () => {
  it('remembers validators per user and query, and forgets a user whose inbox changed', () => {
    const c = new InboxPollCache(30_000, 100);
    c.remember('u1', 'all', v('W/"1-a"'), c.generation);
    c.remember('u1', 'unread', v('W/"1-b"'), c.generation);
    c.remember('u2', 'all', v('W/"7-a"'), c.generation);
    expect(c.lookup('u1', 'all')?.etag).toBe('W/"1-a"');
    expect(c.lookup('u1', 'unread')?.etag).toBe('W/"1-b"');
    expect(c.lookup('u1', 'other')).toBeUndefined();
    c.forget(['u1']);
    expect(c.lookup('u1', 'all')).toBeUndefined();
    expect(c.lookup('u2', 'all')?.etag).toBe('W/"7-a"');
  });

  it('does not keep an answer fetched while an inbox changed (it may predate the change)', () => {
    const c = new InboxPollCache(30_000, 100);
    const before = c.generation;
    c.forget(['someone']);
    c.remember('u1', 'all', v('W/"1-a"'), before);
    expect(c.lookup('u1', 'all')).toBeUndefined();
  });

  it('expires entries after its TTL, keeps at most 8 queries per user, and caches nothing with a TTL of 0', () => {
    const c = new InboxPollCache(1000, 100);
    c.remember('u1', 'q0', v('W/"1-0"'), c.generation);
    expect(c.get('u1', Date.now() + 1001)).toBeUndefined();
    for (let i = 0; i < 9; i++) c.remember('u2', `q${i}`, v(`W/"1-${i}"`), c.generation);
    expect(c.lookup('u2', 'q0')).toBeUndefined();
    expect(c.lookup('u2', 'q8')?.etag).toBe('W/"1-8"');
    const off = new InboxPollCache(0, 100);
    off.remember('u1', 'q', v('W/"1"'), off.generation);
    expect(off.lookup('u1', 'q')).toBeUndefined();
  });

  it('keys a query by its filters whatever their order', () => {
    expect(queryKey({ p: 1, readStatus: 'unread' })).toBe(
      queryKey({ readStatus: 'unread', p: 1, repoName: undefined }),
    );
    expect(queryKey({ p: 1 })).not.toBe(queryKey({ p: 2 }));
  });
});
