import { streamBackoffMs } from './stream-backoff';

describe('streamBackoffMs', () => {
  it('doubles from a second up to a minute', () => {
    const mid = (n: number): number => streamBackoffMs(n, () => 0.5);
    expect([1, 2, 3, 4, 7, 8, 30].map(mid)).toEqual([1000, 2000, 4000, 8000, 60000, 60000, 60000]);
  });

  it('jitters within ±20 %', () => {
    expect(streamBackoffMs(3, () => 0)).toBe(3200);
    expect(streamBackoffMs(3, () => 1)).toBe(4800);
  });
});
