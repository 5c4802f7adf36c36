/** A Retry-After longer than this is capped: the schedule's own longest pause is 10 h. */
const MAX_RETRY_AFTER_MS = 24 * 3600 * 1000;

/** Seconds or an HTTP date, as RFC 9110 allows; undefined when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Math.min(Number(header.trim()) * 1000, MAX_RETRY_AFTER_MS);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.min(Math.max(0, at - now), MAX_RETRY_AFTER_MS);
}

/**
 * The pause before the next attempt after attempt `attempt` (1-based) failed, or null when the
 * schedule is spent. ±20 % jitter; a receiver's Retry-After wins over the schedule.
 */
export function nextDelayMs(
  schedule: number[],
  attempt: number,
  retryAfter?: string,
  random = Math.random,
): number | null {
  if (attempt > schedule.length) return null;
  const asked = retryAfterMs(retryAfter);
  if (asked !== undefined) return asked;
  const base = schedule[attempt - 1];
  return Math.round(base * (0.8 + 0.4 * random()));
}
