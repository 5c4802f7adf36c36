import { CronError, firstRunChecked, nextRun, parseCron } from './cron';

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

  it('refuses a step it cannot read or past the field (issue 22)', () => {
    for (const s of [
      '*/999999999999 * * * *',
      '*/60 * * * *',
      '* */24 * * *',
      '*/1e1 * * * *',
      '*/0x10 * * * *',
      '*/ * * * *',
    ]) {
      expect(() => parseCron(s)).toThrow(/^schedule: bad step/);
    }
    expect(() => parseCron('*/59 * * * *')).not.toThrow();
  });

  describe('firstRunChecked: what a user may schedule (issue 22)', () => {
    const now = new Date('2026-11-23T10:00:00Z');
    it('refuses a schedule that never fires, naming it', () => {
      expect(() => firstRunChecked('0 0 30 2 *', now, 60)).toThrow(/^schedule "0 0 30 2 \*" never fires$/);
      expect(() => firstRunChecked('0 0 31 4,6,9,11 *', now, 60)).toThrow(/never fires/);
    });

    it.each([
      ['* * * * * *', 1],
      ['*/1 * * * * *', 1],
      ['*/30 * * * * *', 30],
      ['0,1 * * * *', 60],
      ['0 */1 * * * *', 60],
      ['0 0 * * * mon-fri', 3600],
    ])('measures the shortest gap of %s (%i s) against the minimum', (schedule, gap) => {
      expect(() => firstRunChecked(schedule, now, gap + 1)).toThrow(
        new RegExp(
          `fires ${gap} s apart; the shortest interval allowed is ${gap + 1} s \\(HUB_SCHEDULED_JOBS_MIN_INTERVAL_SECONDS\\)`,
        ),
      );
      expect(() => firstRunChecked(schedule, now, gap)).not.toThrow();
    });

    it('catches a short gap that only some firings have: 23:59 then 00:00', () => {
      expect(() => firstRunChecked('59 23 * * *', now, 60)).not.toThrow();
      expect(() => firstRunChecked('0,59 0,23 * * *', now, 120)).toThrow(/fires 60 s apart/);
    });

    it('accepts ordinary schedules at the default minimum of 60 s and returns the first firing', () => {
      for (const s of ['* * * * *', '*/5 * * * *', '@hourly', '@daily', '@yearly', '0 0 29 2 *'])
        expect(() => firstRunChecked(s, now, 60)).not.toThrow();
      expect(firstRunChecked('*/15 * * * *', now, 60).toISOString()).toBe('2026-11-23T10:15:00.000Z');
    });
  });
});
