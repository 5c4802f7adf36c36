/** NATS subject matching: `*` matches one token, `>` one or more trailing tokens. */
export function subjectMatches(pattern: string, subject: string): boolean {
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '>') return s.length > i;
    if (i >= s.length) return false;
    if (p[i] !== '*' && p[i] !== s[i]) return false;
  }
  return p.length === s.length;
}

/**
 * The same match as a regular expression, anchored, in the syntax JavaScript and Postgres (`~`)
 * share: lets the all-in-one bus filter subjects in SQL.
 */
export function subjectRegex(pattern: string): string {
  const tokens = pattern
    .split('.')
    .map((t) => (t === '*' ? '[^.]+' : t === '>' ? '[^.]+(\\.[^.]+)*' : t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return `^${tokens.join('\\.')}$`;
}
