import fc from 'fast-check';
import { ScimInvalidFilterError } from '@hub/organizations-contract';
import { compileScimFilter, scimSortExpression } from './scim-filter';
import { GROUP_FILTERS } from './scim-groups.store';
import { USER_FILTERS } from './scim-users.store';

/**
 * The filters identity providers send to GET /scim/v2/Users and /Groups (RFC 7644 3.4.2.2), as
 * inputs and the WHERE condition the store gets: every value a parameter, never text in the SQL.
 * The rows they select are asserted end to end in the SCIM scenarios.
 */
const users = (filter: string | undefined): { sql: string; values: unknown[] } => {
  const values: unknown[] = ['org'];
  return { sql: compileScimFilter(filter, USER_FILTERS, values), values: values.slice(1) };
};
const groups = (filter: string): { sql: string; values: unknown[] } => {
  const values: unknown[] = ['org'];
  return { sql: compileScimFilter(filter, GROUP_FILTERS, values), values: values.slice(1) };
};

function refused(filter: string, map = USER_FILTERS): ScimInvalidFilterError {
  try {
    compileScimFilter(filter, map, []);
  } catch (e) {
    expect(e).toBeInstanceOf(ScimInvalidFilterError);
    return e as ScimInvalidFilterError;
  }
  throw new Error(`filter ${JSON.stringify(filter)} was accepted`);
}

describe('SCIM filters identity providers send', () => {
  it('no filter, or only blanks, selects everything', () => {
    expect(users(undefined)).toEqual({ sql: 'true', values: [] });
    expect(users('')).toEqual({ sql: 'true', values: [] });
    expect(users('   ')).toEqual({ sql: 'true', values: [] });
  });

  it('Okta and Entra look a user up by userName (case-insensitive attribute names and values)', () => {
    expect(users('userName eq "jane.doe@example.com"')).toEqual({
      sql: '(lower(user_name) = lower($2))',
      values: ['jane.doe@example.com'],
    });
    expect(users('username EQ "a@b.c"')).toEqual({ sql: '(lower(user_name) = lower($2))', values: ['a@b.c'] });
    expect(users('urn:ietf:params:scim:schemas:core:2.0:User:userName eq "a@b.c"').values).toEqual(['a@b.c']);
  });

  it('Entra matches on externalId (exact) and id; Okta on active', () => {
    expect(users('externalId eq "0f9b2c4e"')).toEqual({ sql: '(external_id = $2)', values: ['0f9b2c4e'] });
    expect(users('id eq "64b7f0c2a1b2c3d4e5f60718"')).toEqual({
      sql: '(id = $2)',
      values: ['64b7f0c2a1b2c3d4e5f60718'],
    });
    expect(users('active eq true')).toEqual({ sql: '(active = $2)', values: [true] });
    expect(users('active eq False')).toEqual({ sql: '(active = $2)', values: [false] });
  });

  it('the whole grammar: every operator, and/or/not with precedence, parentheses, pr', () => {
    expect(users('userName co "a" or userName sw "b" and not (userName ew "c")').sql).toBe(
      '((strpos(lower(user_name), lower($2)) > 0) OR ((starts_with(lower(user_name), lower($3))) AND NOT COALESCE((right(lower(user_name), length(lower($4))) = lower($4)), false)))',
    );
    expect(users('(userName eq "a" or userName eq "b") and active eq true').sql).toBe(
      '(((lower(user_name) = lower($2)) OR (lower(user_name) = lower($3))) AND (active = $4))',
    );
    expect(users('externalId pr').sql).toBe("(external_id IS NOT NULL AND external_id <> '')");
    expect(users('userName ne "a"').sql).toBe('(lower(user_name) IS DISTINCT FROM lower($2))');
    expect(users('name.familyName ge "M"').sql).toBe('(lower(family_name) >= lower($2))');
    expect(users('meta.lastModified gt "2026-01-01T00:00:00Z"')).toEqual({
      sql: '(updated_at > $2::timestamptz)',
      values: ['2026-01-01T00:00:00.000Z'],
    });
    expect(users('externalId eq null').sql).toBe('(external_id IS NULL)');
  });

  it('value paths and sub-attributes of multi-valued attributes', () => {
    expect(users('emails[type eq "work" and value co "@example.com"]').values).toEqual(['@example.com']);
    expect(users('emails[type eq "work" and value co "@example.com"]').sql).toMatch(
      /^EXISTS \(.*WHERE \(\(e\.n = 1\) AND \(strpos\(lower\(e\.value\), lower\(\$2\)\) > 0\)\)\)$/,
    );
    expect(users('emails.value eq "a@b.c"').sql).toBe(users('emails[value eq "a@b.c"]').sql);
    expect(users('emails co "b.c"').sql).toBe(users('emails[value co "b.c"]').sql);
  });

  it('reads JSON string escapes in values', () => {
    expect(users(String.raw`userName eq "a\"b\\c\u00e9"`).values).toEqual(['a"b\\cé']);
  });

  it('Entra checks group membership with displayName, id and members', () => {
    expect(groups('displayName eq "Engineering"')).toEqual({
      sql: '(lower(name) = lower($2))',
      values: ['Engineering'],
    });
    expect(groups('id eq "g1" and members eq "u1"').values).toEqual(['g1', 'u1']);
    expect(groups('members.value eq "u1"').sql).toBe(groups('members[value eq "u1"]').sql);
  });

  it('refuses what it does not support with invalidFilter, naming the problem', () => {
    expect(refused('userName eq "a" and').message).toMatch(/ends too early/);
    expect(refused('(userName eq "a"').message).toMatch(/ends too early/);
    expect(refused('title eq "CEO"').message).toMatch(/title is not supported/);
    expect(refused('displayName eq "x"').message).toMatch(/supported: username/);
    expect(refused(String.raw`userName eq "\q"`).message).toMatch(/not a valid string/);
    expect(refused('userName eq "unterminated').message).toMatch(/Unsupported filter/);
    expect(refused('userName eq a@b.c').message).toMatch(/Unsupported filter/);
    expect(refused('active gt true').message).toMatch(/only eq and ne/);
    expect(refused('active eq "yes"').message).toMatch(/boolean/);
    expect(refused('userName eq 3').message).toMatch(/in quotes/);
    expect(refused('meta.created gt "yesterday"').message).toMatch(/not a date-time/);
    expect(refused('meta.created co "2026"').message).toMatch(/does not apply/);
    expect(refused('not userName eq "a"').message).toMatch(/parenthesized/);
    expect(refused('emails[value eq "a" and emails[value eq "b"]]').message).toMatch(/value path/);
    expect(refused('userName[value eq "a"]').message).toMatch(/not multi-valued/);
  });

  it('refuses names of Object.prototype members like any other unknown attribute', () => {
    for (const name of ['constructor', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf']) {
      expect(refused(`${name} eq "x"`).message).toMatch(/is not supported/);
      expect(refused(`${name} eq "x"`, GROUP_FILTERS).message).toMatch(/is not supported/);
    }
  });

  it('sortBy takes a single-valued filterable attribute', () => {
    expect(scimSortExpression('userName', USER_FILTERS)).toBe('lower(user_name)');
    expect(scimSortExpression('meta.created', USER_FILTERS)).toBe('created_at');
    expect(scimSortExpression(undefined, USER_FILTERS)).toBeNull();
    expect(() => scimSortExpression('emails', USER_FILTERS)).toThrow(ScimInvalidFilterError);
    expect(() => scimSortExpression('constructor', USER_FILTERS)).toThrow(ScimInvalidFilterError);
  });
});

/** Attribute spellings the parser must accept: any case, with or without the core schema URN. */
const attributeName = fc
  .tuple(
    fc.constantFrom('userName', 'externalId', 'id', 'active'),
    fc.boolean(),
    fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
  )
  .map(
    ([name, urn, upper]) =>
      (urn ? 'urn:ietf:params:scim:schemas:core:2.0:User:' : '') +
      [...name].map((ch, i) => (upper[i] ? ch.toUpperCase() : ch.toLowerCase())).join(''),
  );
const value = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }).map((v) => ({ value: v as unknown, text: JSON.stringify(v) })),
  fc
    .constantFrom(true, false)
    .chain((v) => fc.constantFrom(String(v), String(v).toUpperCase()).map((text) => ({ value: v as unknown, text }))),
);
const blanks = fc.constantFrom(' ', '  ', '\t', ' \n ');
const term = fc
  .tuple(attributeName, value, blanks, blanks)
  .filter(([a, v]) => (a.toLowerCase().endsWith('active') ? typeof v.value === 'boolean' : typeof v.value === 'string'))
  .map(([a, v, s1, s2]) => ({ value: v.value, text: `${a}${s1}eq${s2}${v.text}` }));

/** Fragments of the full RFC 7644 grammar and of JavaScript, to build inputs close to valid ones. */
const fragment = fc.constantFrom(
  'userName',
  'externalId',
  'active',
  'emails',
  'value',
  'constructor',
  '__proto__',
  'toString',
  'urn:ietf:params:scim:schemas:core:2.0:User:',
  ' eq ',
  ' ne ',
  ' co ',
  ' sw ',
  ' pr',
  ' gt ',
  ' and ',
  ' or ',
  'not ',
  '(',
  ')',
  '[',
  ']',
  '"',
  '\\',
  '\\"',
  '\\u',
  'true',
  'false',
  'null',
  ' ',
  '.',
  ':',
  '"a@b.c"',
  '\u0000',
  '\n',
  '\u2028',
  '😀',
  '$1',
  "'",
  ';',
  '--',
);
const nearlyFilter = fc
  .array(fc.oneof(fragment, fc.string({ maxLength: 3 })), { maxLength: 25 })
  .map((parts) => parts.join(''));

describe('SCIM filter properties', () => {
  it('every generated filter of eq terms joined by and or or keeps each value as a parameter, in order', () => {
    fc.assert(
      fc.property(
        fc.array(term, { minLength: 1, maxLength: 5 }),
        fc.constantFrom('and', 'or', 'AND', 'Or'),
        (terms, join) => {
          const result = users(terms.map((t) => t.text).join(` ${join} `));
          expect(result.values).toEqual(terms.map((t) => t.value));
        },
      ),
    );
  });

  it('any input either compiles with its values as parameters only or is refused with invalidFilter, never another error', () => {
    fc.assert(
      fc.property(fc.oneof(nearlyFilter, fc.string({ unit: 'binary', maxLength: 80 })), (filter) => {
        let result: ReturnType<typeof users>;
        try {
          result = users(filter);
        } catch (e) {
          expect(e).toBeInstanceOf(ScimInvalidFilterError);
          return;
        }
        // No character of the filter's own text reaches the SQL but through parameters: no quotes, no semicolons.
        expect(result.sql).not.toMatch(/;|--|"/);
        for (const v of result.values) expect(['string', 'boolean'].includes(typeof v)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('deep parentheses and very long inputs are refused with invalidFilter, not a stack overflow', () => {
    refused('('.repeat(100_000) + 'userName eq "a"' + ')'.repeat(100_000));
    refused('not ('.repeat(50_000));
    refused(Array.from({ length: 20_000 }, () => 'userName eq "a"').join(' and ') + ' or');
    refused(`userName eq "${'\\"'.repeat(100_000)}`);
    refused('('.repeat(30) + 'userName eq "a"' + ')'.repeat(30));
    refused(Array.from({ length: 60 }, () => 'userName eq "a"').join(' or '));
  });
});
