// What the jobs bench's modes share for their figures.

/** The p-th percentile of `xs` (nearest rank); NaN when there is none. */
export const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
