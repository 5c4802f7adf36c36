import { CronError, firstRunChecked, nextRun, parseCron } from './cron';

const next = (s: string, from: string): string | undefined => nextRun(parseCron(s), new Date(from))?.toISOString();

describe('cron schedules (croner; UTC unless CRON_TZ= names a zone)', () => {
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
    expect(() => parseCron('61 * * * *')).toThrow(/^schedule: Invalid value for minute: 61$/);
    expect(() => parseCron('* * * *')).toThrow(CronError);
    expect(() => parseCron('* 5-2 * * *')).toThrow(/larger than to value: '5-2'/);
    expect(() => parseCron('*/0 * * * *')).toThrow(/stepping/);
  });

  it('refuses a step it cannot read or past the field (issue 22)', () => {
    for (const s of ['*/999999999999 * * * *', '* */25 * * *', '*/1e1 * * * *', '*/0x10 * * * *', '*/ * * * *']) {
      expect(() => parseCron(s)).toThrow(CronError);
    }
    expect(() => parseCron('*/59 * * * *')).not.toThrow();
  });

  it('follows a named zone through DST: 02:30 Paris, and the day the clock skips it', () => {
    expect(next('CRON_TZ=Europe/Paris 30 2 * * *', '2026-11-23T00:00:00Z')).toBe('2026-11-23T01:30:00.000Z');
    expect(next('TZ=Europe/Paris 30 2 * * *', '2027-07-01T00:00:00Z')).toBe('2027-07-01T00:30:00.000Z');
    // 28 March 2027: 02:00 becomes 03:00 in Paris; the firing comes at 03:00 local (01:00Z).
    expect(next('CRON_TZ=Europe/Paris 30 2 * * *', '2027-03-27T12:00:00Z')).toBe('2027-03-28T01:00:00.000Z');
    expect(next('CRON_TZ=America/New_York 0 9 * * 1-5', '2026-11-23T00:00:00Z')).toBe('2026-11-23T14:00:00.000Z');
  });

  it('refuses a zone that is not one, naming it', () => {
    expect(() => parseCron('CRON_TZ=Mars/Base 0 * * * *')).toThrow(/^schedule: "Mars\/Base" is not a time zone/);
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
