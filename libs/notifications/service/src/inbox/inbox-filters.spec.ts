import fc from 'fast-check';
import { BadRequestError, NOTIFICATION_MENTIONS, NOTIFICATION_READ_STATUSES, REPO_TYPES } from '@hub/contracts';
import { NotificationFilters } from '@hub/notifications-contract';
import { validatePayload } from '@hub/messaging';
import { callerOf } from './caller';
import { filterConditions, whereAll } from './inbox.store';
import { InvalidLastUpdateError, NoCallerError } from './inbox.errors';

/**
 * The spec 4.1 filters as the notifications service receives them (validated against
 * NotificationFilters, as every RPC payload is) and the WHERE clause they make.
 */
const USER = 'u'.repeat(24);

/** The WHERE text and its parameters, for a query as a client sends it (strings, as in a URL). */
function where(query: Record<string, unknown>): { text: string; params: unknown[] } {
  const params: unknown[] = [USER];
  return { text: whereAll(filterConditions(validatePayload(NotificationFilters, query), params)), params };
}

/** Every placeholder names a parameter and every parameter is used; no value is spliced into the text. */
function expectWellFormed({ text, params }: { text: string; params: unknown[] }, query: Record<string, unknown>): void {
  const used = new Set([...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
  expect(Math.max(1, ...used)).toBeLessThanOrEqual(params.length);
  for (let i = 2; i <= params.length; i++) expect(used.has(i)).toBe(true);
  expect(params[0]).toBe(USER);
  let depth = 0;
  let lowest = 0;
  for (const ch of text.replace(/'[^']*'/g, "''")) {
    depth += ch === '(' ? 1 : ch === ')' ? -1 : 0;
    lowest = Math.min(lowest, depth);
  }
  expect([lowest, depth]).toEqual([0, 0]);
  // The only SQL literals are the module's own; each text value the client gave is a parameter.
  for (const literal of text.match(/'[^']*'/g) ?? []) expect(["'repo'", "'community_blog'"]).toContain(literal);
  for (const key of ['repoType', 'repoName', 'postAuthor', 'paperId', 'articleId'])
    if (query[key] !== undefined) expect(params).toContain(query[key]);
}

describe('inbox filters', () => {
  it('no filter selects every notification of the user', () => {
    expect(where({})).toEqual({ text: 'true', params: [USER] });
    expect(where({ readStatus: 'all', mention: 'all', p: '3' })).toEqual({ text: 'true', params: [USER] });
  });

  it('each filter adds its condition with its value as a parameter', () => {
    expect(where({ readStatus: 'unread' })).toEqual({ text: '(NOT n.read)', params: [USER] });
    expect(where({ repoType: 'model', repoName: 'Alice/Tiny' })).toEqual({
      text: "(t.type = 'repo' AND t.repo_type = $2) AND (lower(t.repo_name) = lower($3))",
      params: [USER, 'model', 'Alice/Tiny'],
    });
    expect(where({ articleId: 'my-post' }).params).toEqual([USER, 'my-post']);
    expect(where({ mention: 'participating' }).text).toContain('$1::bpchar = ANY(t.participant_ids)');
    expect(where({ mention: 'mentions' }).text).toContain('$1::bpchar = ANY(t.mentioned_ids)');
  });

  it('lastUpdate becomes one instant in UTC, whatever offset it was given with', () => {
    expect(where({ lastUpdate: '2024-05-01T14:00:00+02:00' }).params).toEqual([USER, '2024-05-01T12:00:00.000Z']);
    expect(where({ lastUpdate: '2024-05-01' }).params).toEqual([USER, '2024-05-01T00:00:00.000Z']);
  });

  it('refuses bad values with a 400 naming the filter', () => {
    for (const [query, message] of [
      [{ readStatus: 'read' }, /readStatus must be one of all, unread/],
      [{ repoType: 'space ' }, /repoType must be one of/],
      [{ mention: 'me' }, /mention must be one of/],
      [{ repoName: '' }, /repoName must be 1 to 200 characters/],
      [{ postAuthor: 'x'.repeat(201) }, /postAuthor must be 1 to 200/],
      [{ lastUpdate: 'yesterday' }, /lastUpdate must be an ISO 8601 date-time/],
      [{ p: '-1' }, /p must be an integer/],
    ] as const) {
      expect(() => where(query)).toThrow(BadRequestError);
      expect(() => where(query)).toThrow(message);
    }
  });

  it('refuses ISO 8601 forms Date cannot read (week, ordinal, basic) with its own 400, not a RangeError', () => {
    for (const lastUpdate of [
      '2024-W18-3',
      '2024-122',
      '20240501',
      '20240501T120000Z',
      '2024-05-01T12',
      '2024-05-01T12:00:00,5Z',
    ]) {
      expect(() => where({ lastUpdate })).toThrow(BadRequestError);
      expect(() => where({ lastUpdate })).toThrow(InvalidLastUpdateError);
      expect(() => where({ lastUpdate })).toThrow(/lastUpdate must be an ISO 8601 date-time/);
    }
  });

  it('acts only for a caller with a user id', () => {
    expect(callerOf({ requestId: 'r', userId: USER } as never)).toBe(USER);
    expect(() => callerOf({ requestId: 'r' } as never)).toThrow(NoCallerError);
  });
});

/** Query values as clients send them: mostly valid, sometimes not, always strings as in a URL. */
const maybe = <T>(valid: fc.Arbitrary<T>): fc.Arbitrary<T | string> =>
  fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) });
const instant = fc.date({ min: new Date(0), max: new Date('2100-01-01'), noInvalidDate: true });
const lastUpdate = fc.oneof(
  instant.map((d) => d.toISOString()),
  instant.map((d) => d.toISOString().slice(0, 10)),
  instant.map((d) => d.toISOString().replace('Z', '+05:30')),
  fc.constantFrom('2024-W18-3', '2024-122', '20240501', '2024-05-01T12', '2024-02-30T00:00:00Z'),
);
const query = fc.record(
  {
    p: maybe(fc.nat().map(String)),
    readStatus: maybe(fc.constantFrom(...NOTIFICATION_READ_STATUSES)),
    repoType: maybe(fc.constantFrom(...REPO_TYPES)),
    repoName: maybe(fc.string({ unit: 'binary', minLength: 1, maxLength: 30 })),
    postAuthor: maybe(fc.string({ minLength: 1, maxLength: 30 })),
    paperId: maybe(fc.string({ minLength: 1, maxLength: 30 })),
    articleId: maybe(fc.constantFrom("x' OR 1=1 --", '$1', 'a)b', "it's")),
    mention: maybe(fc.constantFrom(...NOTIFICATION_MENTIONS)),
    lastUpdate: maybe(lastUpdate),
  },
  { requiredKeys: [] },
);

describe('inbox filters properties', () => {
  it('every combination is either refused with a 400 or yields a well-formed WHERE clause with its values as parameters', () => {
    fc.assert(
      fc.property(query, (q) => {
        let result: ReturnType<typeof where>;
        try {
          result = where(q);
        } catch (e) {
          expect(e).toBeInstanceOf(BadRequestError);
          return;
        }
        expectWellFormed(result, q);
      }),
      { numRuns: 300 },
    );
  });

  it('each accepted filter narrows: its condition is in the clause and its value among the parameters', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('repoName', 'postAuthor', 'paperId', 'articleId'),
        fc.string({ minLength: 1, maxLength: 200 }),
        (key, value) => {
          const { text, params } = where({ [key]: value });
          expect(params).toEqual([USER, value]);
          expect(text).toMatch(/^\(.*\$2.*\)$/);
        },
      ),
    );
  });
});
