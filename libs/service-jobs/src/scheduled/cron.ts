/**
 * Cron schedules, UTC: 5 fields (minute hour day-of-month month day-of-week) or 6 with seconds
 * first; `*`, `a-b`, lists, `/step`, month and weekday names, and @yearly/@annually/@monthly/
 * @weekly/@daily/@midnight/@hourly. Day-of-month and day-of-week both restricted: either matches.
 */
const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

interface Field {
  min: number;
  max: number;
  names?: string[];
  offset?: number;
}
const FIELDS: Field[] = [
  { min: 0, max: 59 },
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS, offset: 1 },
  { min: 0, max: 7, names: DAYS },
];
const FIELD_NAMES = ['second', 'minute', 'hour', 'day of month', 'month', 'day of week'];

export class CronError extends Error {}

export interface Cron {
  seconds: Set<number>;
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  domStar: boolean;
  dowStar: boolean;
}

function value(text: string, f: Field, name: string): number {
  const i = f.names?.indexOf(text.toLowerCase()) ?? -1;
  const n = i >= 0 ? i + (f.offset ?? 0) : /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(n) || n < f.min || n > f.max)
    throw new CronError(`schedule: "${text}" is not a valid ${name} (${f.min}-${f.max})`);
  return n;
}

function parseField(text: string, f: Field, name: string): Set<number> {
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const [range, stepText] = part.split('/');
    // A step past the field's largest value means nothing (`*/999999999999` read as `0`): refused.
    const step = stepText === undefined ? 1 : /^\d{1,2}$/.test(stepText) ? Number(stepText) : NaN;
    if (!(step >= 1 && step <= Math.max(f.max, 1)))
      throw new CronError(`schedule: bad step "${stepText ?? ''}" in the ${name} field (1-${f.max})`);
    let lo: number;
    let hi: number;
    if (range === '*') [lo, hi] = [f.min, f.max];
    else if (range.includes('-')) [lo, hi] = range.split('-').map((r) => value(r, f, name)) as [number, number];
    else [lo, hi] = [value(range, f, name), stepText === undefined ? value(range, f, name) : f.max];
    if (lo > hi) throw new CronError(`schedule: range ${range} of the ${name} field runs backwards`);
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return out;
}

export function parseCron(schedule: string): Cron {
  const text = MACROS[schedule.trim().toLowerCase()] ?? schedule.trim();
  const parts = text.split(/\s+/);
  if (parts.length !== 5 && parts.length !== 6)
    throw new CronError(
      'schedule must be a cron expression of 5 fields (or 6 with seconds first) or @hourly, @daily, @weekly, @monthly, @yearly',
    );
  const all = parts.length === 5 ? ['0', ...parts] : parts;
  const sets = all.map((p, i) => parseField(p, FIELDS[i], FIELD_NAMES[i]));
  const weekdays = new Set([...sets[5]].map((d) => d % 7));
  return {
    seconds: sets[0],
    minutes: sets[1],
    hours: sets[2],
    days: sets[3],
    months: sets[4],
    weekdays,
    domStar: all[3] === '*',
    dowStar: all[5] === '*',
  };
}

function dayMatches(c: Cron, d: Date): boolean {
  const dom = c.days.has(d.getUTCDate());
  const dow = c.weekdays.has(d.getUTCDay());
  if (c.domStar || c.dowStar) return (c.domStar || dom) && (c.dowStar || dow);
  return dom || dow;
}

/** The first firing strictly after `after`, or null within five years (e.g. 30 February). */
export function nextRun(c: Cron, after: Date): Date | null {
  const d = new Date(Math.floor(after.getTime() / 1000) * 1000 + 1000);
  const limit = after.getTime() + 5 * 366 * 24 * 3600 * 1000;
  while (d.getTime() <= limit) {
    if (!c.months.has(d.getUTCMonth() + 1)) {
      d.setUTCMonth(d.getUTCMonth() + 1, 1);
      d.setUTCHours(0, 0, 0);
      continue;
    }
    if (!dayMatches(c, d)) {
      d.setUTCDate(d.getUTCDate() + 1);
      d.setUTCHours(0, 0, 0);
      continue;
    }
    if (!c.hours.has(d.getUTCHours())) {
      d.setUTCHours(d.getUTCHours() + 1, 0, 0);
      continue;
    }
    if (!c.minutes.has(d.getUTCMinutes())) {
      d.setUTCMinutes(d.getUTCMinutes() + 1, 0);
      continue;
    }
    if (!c.seconds.has(d.getUTCSeconds())) {
      d.setUTCSeconds(d.getUTCSeconds() + 1);
      continue;
    }
    return d;
  }
  return null;
}

/**
 * The first firing after `now` of a schedule a user may create: one that fires (not 30 February)
 * and never twice within `minIntervalSeconds`. The gaps are measured between the next firings
 * (up to 500, a year at most) rather than read off the fields, so every way of writing a short
 * interval (`* * * * * *`, `0,1 * * * *`, `59 * * * *` with `0 * * * *`…) is caught alike.
 */
export function firstRunChecked(schedule: string, now: Date, minIntervalSeconds: number): Date {
  const c = parseCron(schedule);
  const first = nextRun(c, now);
  if (!first) throw new CronError(`schedule "${schedule}" never fires`);
  const horizon = first.getTime() + 366 * 24 * 3600 * 1000;
  let previous = first;
  for (let i = 0; i < 500; i++) {
    const next = nextRun(c, previous);
    if (!next || next.getTime() > horizon) break;
    const gap = (next.getTime() - previous.getTime()) / 1000;
    if (gap < minIntervalSeconds) {
      throw new CronError(
        `schedule "${schedule}" fires ${gap} s apart; the shortest interval allowed is ${minIntervalSeconds} s (HUB_SCHEDULED_JOBS_MIN_INTERVAL_SECONDS)`,
      );
    }
    previous = next;
  }
  return first;
}
