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

  it('pauses a failing webhook, doubling the pause up to the longest, then lets one attempt at a time go', () => {
    const f = new InFlight(8, 64, 1000, middle);
    const counts = (now: number) => {
      const l = f.load(now);
      return Object.fromEntries(l.webhookIds.map((id, i) => [id, l.webhookCounts[i]]));
    };
    f.started('bad', 'mallory');
    f.finished('bad', 'mallory');
    expect(f.failed('bad', 0)).toBe(250);
    // Paused: counted full, so no claim takes any of its rows.
    expect(counts(100)).toEqual({ bad: 8 });
    // Attempts that were in flight failing during the pause count once.
    expect(f.failed('bad', 100)).toBe(150);
    // After it: one attempt at a time.
    expect(counts(300)).toEqual({ bad: 7 });
    expect([f.failed('bad', 300), f.failed('bad', 900), f.failed('bad', 1900), f.failed('bad', 2900)]).toEqual([
      500, 1000, 1000, 1000,
    ]);
    f.succeeded('bad');
    expect(counts(4000)).toEqual({});
  });

  it('draws each pause within 20 % of the doubled one', () => {
    expect(new InFlight(8, 64, 1000, () => 0).failed('bad', 0)).toBe(200);
    expect(new InFlight(8, 64, 1000, () => 0.999).failed('bad', 0)).toBe(300);
  });

  it('pauses nothing when the longest pause is 0, and forgets a webhook that failed long ago', () => {
    const off = new InFlight(8, 64, 0);
    expect(off.failed('bad', 0)).toBe(0);
    expect(off.load(10).webhookIds).toEqual([]);
    const f = new InFlight(8, 64, 1000, middle);
    f.failed('old', 0);
    expect(f.load(10 * 60_000).webhookIds).toEqual(['old']);
    expect(f.load(10 * 60_000 + 251).webhookIds).toEqual([]);
    // Started afresh: the first pause again.
    expect(f.failed('old', 10 * 60_000 + 300)).toBe(250);
  });
});

/** The middle of the pause's range: the doubled pause itself. */
function middle(): number {
  return 0.5;
}
