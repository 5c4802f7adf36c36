/** The pause before retry `attempts` (1, 2, …) of a failing stream: 1 s doubling to a minute, ±20 % jitter. */
export function streamBackoffMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(60_000, 1000 * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}
