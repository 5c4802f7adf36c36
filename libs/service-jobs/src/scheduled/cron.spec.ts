import { CronError, nextRun, parseCron } from './cron';

const next = (s: string, from: string): string | undefined => nextRun(parseCron(s), new Date(from))?.toISOString();

describe('cron schedules (UTC)', () => {
  it('finds the next firing of common schedules', () => {
    expect(next('0 9 * * 1', '2026-11-23T09:00:00Z')).toBe('2026-11-30T09:00:00.000Z');
    expect(next('*/15 * * * *', '2026-11-23T10:07:12Z')).toBe('2026-11-23T10:15:00.000Z');
    expect(next('@hourly', '2026-11-23T10:59:59Z')).toBe('2026-11-23T11:00:00.000Z');
    expect(next('@daily', '2026-12-31T23:00:00Z')).toBe('2027-01-01T00:00:00.000Z');
    expect(next('*/2 * * * * *', '2026-11-23T10:00:01Z')).toBe('2026-11-23T10:00:02.000Z');
    expect(next('0 0 29 feb *', '2026-03-01T00:00:00Z')).toBe('2028-02-29T00:00:00.000Z');
    expect(next('0 0 1,15 * mon', '2026-11-23T00:00:00Z')).toBe('2026-11-30T00:00:00.000Z');
    expect(next('0 0 30 2 *', '2026-01-01T00:00:00Z')).toBeUndefined();
  });

  it('names the field of a bad schedule', () => {
    expect(() => parseCron('61 * * * *')).toThrow(/minute/);
    expect(() => parseCron('* * * *')).toThrow(CronError);
    expect(() => parseCron('* 5-2 * * *')).toThrow(/backwards/);
    expect(() => parseCron('*/0 * * * *')).toThrow(/step/);
  });
});
