import { EventEmitter } from 'node:events';
import { type FastifyReply } from 'fastify';
import { LiveAnswers } from './live-answers';

/** A reply whose request started `elapsed` ms ago; `close()` is the answer ending. */
function reply(elapsed = 0): FastifyReply & { close(): void } {
  const raw = new EventEmitter();
  return { elapsedTime: elapsed, raw, close: () => raw.emit('close') } as unknown as FastifyReply & { close(): void };
}

describe('LiveAnswers', () => {
  const user = 'u1';
  const org = 'o1';

  it('ends the answers of a revoked token, and only those', () => {
    const live = new LiveAnswers();
    const ended: string[] = [];
    live.add(reply(), { tokenId: 't1', userId: user }, () => ended.push('a'));
    live.add(reply(), { tokenId: 't1', userId: user, organizationId: org }, () => ended.push('b'));
    live.add(reply(), { tokenId: 't2', userId: user }, () => ended.push('c'));
    live.tokensRevoked(['t1']);
    expect(ended.sort()).toEqual(['a', 'b']);
  });

  it('a revocation by one organization ends only the answers opened on it', () => {
    const live = new LiveAnswers();
    const ended: string[] = [];
    live.add(reply(), { tokenId: 't1', userId: user }, () => ended.push('own'));
    live.add(reply(), { tokenId: 't1', userId: user, organizationId: org }, () => ended.push('org'));
    live.add(reply(), { tokenId: 't1', userId: user, organizationId: 'o2' }, () => ended.push('other'));
    live.tokensRevoked(['t1'], org);
    expect(ended).toEqual(['org']);
  });

  it("a membership change ends the user's answers on that organization, whatever the token", () => {
    const live = new LiveAnswers();
    const ended: string[] = [];
    live.add(reply(), { tokenId: 't1', userId: user, organizationId: org }, () => ended.push('a'));
    live.add(reply(), { tokenId: 't2', userId: user, organizationId: org }, () => ended.push('b'));
    live.add(reply(), { tokenId: 't3', userId: 'u2', organizationId: org }, () => ended.push('other user'));
    live.add(reply(), { tokenId: 't1', userId: user }, () => ended.push('own namespace'));
    live.membershipChanged(org, [user]);
    expect(ended.sort()).toEqual(['a', 'b']);
  });

  it('forgets an answer once it closed', () => {
    const live = new LiveAnswers();
    const r = reply();
    const end = jest.fn();
    live.add(r, { tokenId: 't1', userId: user, organizationId: org }, end);
    expect(live.size).toBe(1);
    r.close();
    expect(live.size).toBe(0);
    live.tokensRevoked(['t1']);
    live.membershipChanged(org, [user]);
    expect(end).not.toHaveBeenCalled();
  });

  it('ends at once an answer whose request started before a revocation it registers after', () => {
    const live = new LiveAnswers();
    live.tokensRevoked(['t1']);
    live.membershipChanged(org, [user]);
    const revoked = jest.fn();
    live.add(reply(5_000), { tokenId: 't1', userId: user }, revoked);
    const removed = jest.fn();
    const opening = reply(5_000);
    // Ending an answer closes its response, which forgets it.
    live.add(opening, { tokenId: 't9', userId: user, organizationId: org }, () => {
      removed();
      opening.close();
    });
    expect(revoked).toHaveBeenCalledTimes(1);
    expect(removed).toHaveBeenCalledTimes(1);
    expect(live.size).toBe(0);
    // A request that started after the events is not affected by them.
    const later = jest.fn();
    live.add(reply(-1_000), { tokenId: 't1', userId: user, organizationId: org }, later);
    expect(later).not.toHaveBeenCalled();
  });

  it('a membership change asks each answer whether it is still allowed, and ends only those that are not', async () => {
    const live = new LiveAnswers();
    const ended: string[] = [];
    live.add(reply(), { tokenId: 't1', userId: user, organizationId: org, stillAllowed: async () => true }, () =>
      ended.push('still reads'),
    );
    live.add(reply(), { tokenId: 't2', userId: user, organizationId: org, stillAllowed: async () => false }, () =>
      ended.push('removed'),
    );
    live.add(
      reply(),
      { tokenId: 't3', userId: user, organizationId: org, stillAllowed: () => Promise.reject(new Error('rpc down')) },
      () => ended.push('unknown'),
    );
    live.membershipChanged(org, [user]);
    await new Promise((r) => setImmediate(r));
    expect(ended.sort()).toEqual(['removed', 'unknown']);
  });

  it('a join announced while the answer was being opened does not end it', async () => {
    const live = new LiveAnswers();
    live.membershipChanged(org, [user]);
    const end = jest.fn();
    live.add(reply(5_000), { tokenId: 't1', userId: user, organizationId: org, stillAllowed: async () => true }, end);
    await new Promise((r) => setImmediate(r));
    expect(end).not.toHaveBeenCalled();
    expect(live.size).toBe(1);
  });
});
