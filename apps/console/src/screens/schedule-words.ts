/**
 * A cron schedule in words with its timezone (decision 0805): "every day at 09:30 (Europe/Paris)".
 * The common shapes only; anything else is null, and the console shows the cron as it is.
 */
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const MONTH_NAMES = MONTHS.map((m) => m.slice(0, 3).toLowerCase());
const MACROS: Record<string, string> = {
  '@hourly': '0 * * * *',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@weekly': '0 0 * * 0',
  '@monthly': '0 0 1 * *',
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
};

const num = (s: string, max: number): number | null => (/^\d+$/.test(s) && Number(s) <= max ? Number(s) : null);
const pad = (n: number): string => String(n).padStart(2, '0');

function day(s: string): number | null {
  const i = DAY_NAMES.indexOf(s.toLowerCase());
  const n = i >= 0 ? i : num(s, 7);
  return n === null ? null : n % 7;
}

/** "Monday", "Monday to Friday", "Monday, Wednesday and Friday"; null for anything else. */
function days(field: string): string | null {
  const parts = field.split(',').map((p) => {
    const range = p.split('-');
    if (range.length === 2) {
      const [a, b] = range.map(day);
      return a === null || b === null ? null : `${DAYS[a]} to ${DAYS[b]}`;
    }
    const d = day(p);
    return d === null ? null : DAYS[d];
  });
  if (parts.some((p) => p === null)) return null;
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

function month(s: string): string | null {
  const i = MONTH_NAMES.indexOf(s.toLowerCase());
  const n = i >= 0 ? i + 1 : num(s, 12);
  return n === null || n < 1 ? null : MONTHS[n - 1];
}

function words(cron: string): string | null {
  const f = (MACROS[cron.toLowerCase()] ?? cron).split(/\s+/);
  if (f.length !== 5) return null;
  const [mi, h, dom, mon, dow] = f;
  const step = /^\*\/(\d+)$/;
  if (dom !== '*' || mon !== '*' || dow !== '*') {
    const m = num(mi, 59);
    const hr = num(h, 23);
    if (m === null || hr === null) return null;
    const at = `at ${pad(hr)}:${pad(m)}`;
    if (dom === '*' && mon === '*') {
      const d = days(dow);
      return d ? `every ${d} ${at}` : null;
    }
    const dm = num(dom, 31);
    if (dm === null || dm < 1 || dow !== '*') return null;
    if (mon === '*') return `on day ${dm} of every month ${at}`;
    const mo = month(mon);
    return mo ? `every year on ${dm} ${mo} ${at}` : null;
  }
  if (mi === '*' && h === '*') return 'every minute';
  const ms = step.exec(mi);
  if (ms && h === '*') return `every ${ms[1]} minutes`;
  const m = num(mi, 59);
  if (m === null) return null;
  if (h === '*') return `every hour at :${pad(m)}`;
  const hs = step.exec(h);
  if (hs) return `every ${hs[1]} hours at :${pad(m)}`;
  const hr = num(h, 23);
  return hr === null ? null : `every day at ${pad(hr)}:${pad(m)}`;
}

const ZONE = /^(?:CRON_TZ|TZ)=(\S+)\s+/;

/** The schedule's words (or null) and its zone: UTC unless a leading `CRON_TZ=` names one. */
export function scheduleInWords(schedule: string): { words: string | null; zone: string } {
  const text = schedule.trim();
  const z = ZONE.exec(text);
  return { words: words(z ? text.slice(z[0].length).trim() : text), zone: z ? z[1] : 'UTC' };
}
