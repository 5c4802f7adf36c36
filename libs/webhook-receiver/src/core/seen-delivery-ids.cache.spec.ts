import { SeenDeliveryIdsCache } from './seen-delivery-ids.cache';

describe('SeenDeliveryIdsCache', () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => (now = 1_000_000));

  it('reports a completed id as done until it expires, then as new again', () => {
    const cache = new SeenDeliveryIdsCache(300_000, 10, clock);
    expect(cache.begin('a')).toBe('new');
    cache.complete('a');
    now += 299_999;
    expect(cache.begin('a')).toBe('done');
    now += 1;
    expect(cache.begin('a')).toBe('new');
  });

  it('reports an id being handled as in flight, and forgets an abandoned one (the hub retries it)', () => {
    const cache = new SeenDeliveryIdsCache(300_000, 10, clock);
    expect(cache.begin('a')).toBe('new');
    expect(cache.begin('a')).toBe('in-flight');
    cache.abandon('a');
    expect(cache.begin('a')).toBe('new');
  });

  it('never holds more than its capacity, evicting the oldest ids first', () => {
    const cache = new SeenDeliveryIdsCache(300_000, 3, clock);
    for (const id of ['a', 'b', 'c', 'd', 'e']) {
      cache.begin(id);
      cache.complete(id);
      now += 1;
    }
    expect(cache.size).toBe(3);
    expect(['a', 'b', 'c', 'd', 'e'].map((id) => cache.begin(id))).toEqual(['new', 'new', 'done', 'done', 'done']);
  });

  it('drops expired ids when new ones arrive', () => {
    const cache = new SeenDeliveryIdsCache(1_000, 100, clock);
    for (let i = 0; i < 50; i++) {
      cache.begin(`old${i}`);
      cache.complete(`old${i}`);
    }
    now += 1_000;
    cache.begin('fresh');
    cache.complete('fresh');
    expect(cache.size).toBe(1);
  });

  it('keeps an id completed again after expiring when its first entry is evicted', () => {
    const cache = new SeenDeliveryIdsCache(1_000, 2, clock);
    cache.begin('a');
    cache.complete('a');
    now += 1_000;
    expect(cache.begin('a')).toBe('new');
    cache.complete('a'); // the ring now drops the expired first entry of 'a', not the live one
    cache.begin('b');
    cache.complete('b');
    expect(cache.begin('a')).toBe('done');
    expect(cache.size).toBe(2);
  });
});
