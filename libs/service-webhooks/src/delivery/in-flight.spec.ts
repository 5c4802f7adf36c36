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
    // w1 was at its cap of 2.
    expect(f.finished('w1', 'alice')).toBe(true);
    // Neither w1 (1 of 2) nor alice (2 of 3) is at a cap now.
    expect(f.finished('w1', 'alice')).toBe(false);
    f.started('w3', 'alice');
    f.started('w4', 'alice');
    // alice holds 3 of 3: any of her webhooks ending frees room for her others.
    expect(f.finished('w3', 'alice')).toBe(true);
  });

  it('counts an attempt whose webhook is gone by webhook only', () => {
    const f = new InFlight(1, 1);
    f.started('gone', undefined);
    expect(f.load().ownerIds).toEqual([]);
    expect(f.finished('gone', undefined)).toBe(true);
  });
});
