import { nextDelayMs, retryAfterMs } from './retry-policy';

describe('retry policy', () => {
  const schedule = [0, 5000, 300_000];

  it('follows the schedule with ±20 % jitter and gives up when it is spent', () => {
    expect(nextDelayMs(schedule, 1, undefined, () => 0.5)).toBe(0);
    expect(nextDelayMs(schedule, 2, undefined, () => 0)).toBe(4000);
    expect(nextDelayMs(schedule, 2, undefined, () => 1)).toBe(6000);
    expect(nextDelayMs(schedule, 4)).toBeNull();
  });

  it('honours Retry-After in seconds or as an HTTP date, capped at a day', () => {
    expect(nextDelayMs(schedule, 1, '7')).toBe(7000);
    expect(retryAfterMs(new Date(Date.now() + 60_000).toUTCString())).toBeGreaterThan(55_000);
    expect(retryAfterMs('999999999')).toBe(24 * 3600 * 1000);
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});
