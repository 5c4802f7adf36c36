import { Cron } from 'croner';

/**
 * Cron schedules read by `croner` (decision 0631): 5 fields (minute hour day-of-month month
 * day-of-week), 6 with seconds first, or 7 with a year last; `*`, `a-b`, lists, `/step`, names,
 * `L`, `W`, `#`, and @yearly/@annually/@monthly/@weekly/@daily/@midnight/@hourly. Day-of-month and
 * day-of-week both restricted: either matches (as Vixie cron). UTC unless the schedule starts with
 * `CRON_TZ=<IANA zone> ` (or `TZ=`), as cronie and Kubernetes CronJobs write it; firings then follow
 * the zone's clock through DST (a time the spring change skips fires at the first instant after it).
 */
export class CronError extends Error {}

const ZONE_PREFIX = /^(?:CRON_TZ|TZ)=(\S+)\s+/;

function zoneOf(name: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    throw new CronError(`schedule: "${name}" is not a time zone (an IANA name such as Europe/Paris)`);
  }
}

/** A parsed schedule; `nextRun` reads it. */
export function parseCron(schedule: string): Cron {
  const text = schedule.trim();
  const zone = ZONE_PREFIX.exec(text);
  const pattern = zone ? text.slice(zone[0].length) : text;
  // UTC as an offset, not a zone: croner's zone arithmetic costs ~10× more per firing.
  const options = zone ? { paused: true, timezone: zoneOf(zone[1]) } : { paused: true, utcOffset: 0 };
  try {
    return new Cron(pattern, options);
  } catch (e) {
    throw new CronError(`schedule: ${String((e as Error).message).replace(/^CronPattern:\s*/, '')}`);
  }
}

/** The first firing strictly after `after`, or null when there is none (e.g. 30 February). */
export function nextRun(c: Cron, after: Date): Date | null {
  return c.nextRun(after);
}

/**
 * The first firing after `now` of a schedule a user may create: one that fires (not 30 February)
 * and never twice within `minIntervalSeconds`. The gaps are measured between the next firings
 * (up to 500, a year at most) rather than read off the fields, so every way of writing a short
 * interval (`* * * * * *`, `0,1 * * * *`, `59 * * * *` with `0 * * * *`, a DST change…) is caught alike.
 */
export function firstRunChecked(schedule: string, now: Date, minIntervalSeconds: number): Date {
  const runs = parseCron(schedule).nextRuns(500, now);
  if (runs.length === 0) throw new CronError(`schedule "${schedule}" never fires`);
  const horizon = runs[0].getTime() + 366 * 24 * 3600 * 1000;
  for (let i = 1; i < runs.length && runs[i].getTime() <= horizon; i++) {
    const gap = (runs[i].getTime() - runs[i - 1].getTime()) / 1000;
    if (gap < minIntervalSeconds) {
      throw new CronError(
        `schedule "${schedule}" fires ${gap} s apart; the shortest interval allowed is ${minIntervalSeconds} s (HUB_SCHEDULED_JOBS_MIN_INTERVAL_SECONDS)`,
      );
    }
  }
  return runs[0];
}
