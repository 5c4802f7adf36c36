import { InFlight } from './in-flight';

describe('InFlight', () => {
  it('counts attempts per webhook and per owner, and forgets what has ended', () => {
    const f = new InFlight(2, 3);
    f.started('w1', 'alice');
    f.started('w1', 'alice');
    f.started('w2', 'bob');
    expect(f.load()).toEqual({
      webhookIds: ['w1', 'w2'],
      webhookCounts: [2, 1],
      ownerIds: ['alice', 'bob'],
      ownerCounts: [2, 1],
    });
    f.finished('w1', 'alice');
    f.finished('w1', 'alice');
    f.finished('w2', 'bob');
    expect(f.load()).toEqual({ webhookIds: [], webhookCounts: [], ownerIds: [], ownerCounts: [] });
  });

  it('says when an ending attempt frees room under a cap that held work back', () => {
    const f = new InFlight(2, 3);
    f.started('w1', 'alice');
    f.started('w1', 'alice');
    f.started('w2', 'alice');
    // w1 was at its cap of 2 and alice at hers of 3: one slot is a quarter of either.
    expect(f.finished('w1', 'alice')).toBe(true);
    // Neither was held any more.
    expect(f.finished('w1', 'alice')).toBe(false);
    f.started('w3', 'alice');
    f.started('w4', 'alice');
    // alice holds 3 of 3: any of her webhooks ending frees room for her others.
    expect(f.hasRoomFor('alice')).toBe(false);
    expect(f.finished('w3', 'alice')).toBe(true);
    expect(f.hasRoomFor('alice')).toBe(true);
  });

  it('lets a capped owner go once a quarter of its cap is free, not on every attempt ended', () => {
    const f = new InFlight(100, 8);
    for (let i = 0; i < 8; i++) f.started(`w${i}`, 'alice');
    expect(f.hasRoomFor('alice')).toBe(false);
    expect(f.hasRoomFor('bob')).toBe(true);
    // 1 of 8 free: not yet a quarter.
    expect(f.finished('w0', 'alice')).toBe(false);
    expect(f.hasRoomFor('alice')).toBe(false);
    // 2 of 8.
    expect(f.finished('w1', 'alice')).toBe(true);
    expect(f.hasRoomFor('alice')).toBe(true);
    expect(f.finished('w2', 'alice')).toBe(false);
  });

  it('does not let a webhook go while its owner is held: the owner letting go wakes the claim', () => {
    const f = new InFlight(2, 8);
    for (const w of ['w1', 'w2', 'w3', 'w4']) {
      f.started(w, 'alice');
      f.started(w, 'alice');
    }
    // w1 has a quarter of its cap free, but alice (7 of 8) is still held: nothing to claim.
    expect(f.finished('w1', 'alice')).toBe(false);
    // alice at 6 of 8: let go.
    expect(f.finished('w2', 'alice')).toBe(true);
  });

  it('counts an attempt whose webhook is gone by webhook only', () => {
    const f = new InFlight(1, 1);
    f.started('gone', undefined);
    expect(f.load().ownerIds).toEqual([]);
    expect(f.finished('gone', undefined)).toBe(true);
  });
});
