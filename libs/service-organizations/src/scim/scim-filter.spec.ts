import fc from 'fast-check';
import { ScimInvalidFilterError } from '@hub/contracts';
import { parseScimFilter } from './scim-filter';
import { GROUP_FILTERS } from './scim-groups.store';
import { USER_FILTERS } from './scim-users.store';

/**
 * The filters identity providers send to GET /scim/v2/Users and /Groups (RFC 7644 3.4.2.2), as
 * inputs and what the store filters on. Behaviour only: each expectation is (attribute the store
 * filters on, value), so a parser for the full grammar passes the same tests.
 */
const users = (filter: string | undefined): [string, unknown][] => parseScimFilter(filter, USER_FILTERS).map((t) => [t.attribute, t.value]);
const groups = (filter: string): [string, unknown][] => parseScimFilter(filter, GROUP_FILTERS).map((t) => [t.attribute, t.value]);

function refused(filter: string, map = USER_FILTERS): ScimInvalidFilterError {
  try {
    parseScimFilter(filter, map);
  } catch (e) {
    expect(e).toBeInstanceOf(ScimInvalidFilterError);
    return e as ScimInvalidFilterError;
  }
  throw new Error(`filter ${JSON.stringify(filter)} was accepted`);
}

describe('SCIM filters identity providers send', () => {
  it('no filter, or only blanks, selects everything', () => {
    expect(users(undefined)).toEqual([]);
    expect(users('')).toEqual([]);
    expect(users('   ')).toEqual([]);
  });

  it('Okta and Entra look a user up by userName (case-insensitive attribute names)', () => {
    expect(users('userName eq "jane.doe@example.com"')).toEqual([[USER_FILTERS['username'], 'jane.doe@example.com']]);
    expect(users('username EQ "a@b.c"')).toEqual([[USER_FILTERS['username'], 'a@b.c']]);
    expect(users('urn:ietf:params:scim:schemas:core:2.0:User:userName eq "a@b.c"')).toEqual([[USER_FILTERS['username'], 'a@b.c']]);
  });

  it('Entra matches on externalId (its object id) and id; Okta on active', () => {
    expect(users('externalId eq "0f9b2c4e-5d1a-4c1e-9a43-0b5e7e1c2d3f"')).toEqual([[USER_FILTERS['externalid'], '0f9b2c4e-5d1a-4c1e-9a43-0b5e7e1c2d3f']]);
    expect(users('id eq "64b7f0c2a1b2c3d4e5f60718"')).toEqual([[USER_FILTERS['id'], '64b7f0c2a1b2c3d4e5f60718']]);
    expect(users('active eq true')).toEqual([[USER_FILTERS['active'], true]]);
    expect(users('active eq False')).toEqual([[USER_FILTERS['active'], false]]);
  });

  it('joins terms with and, keeping their order', () => {
    expect(users('userName eq "a" and externalId eq "b"')).toEqual([[USER_FILTERS['username'], 'a'], [USER_FILTERS['externalid'], 'b']]);
    expect(users('  userName eq "a"   AND   active eq true  ')).toEqual([[USER_FILTERS['username'], 'a'], [USER_FILTERS['active'], true]]);
  });

  it('reads JSON string escapes in values', () => {
    expect(users(String.raw`userName eq "a\"b\\c\u00e9"`)).toEqual([[USER_FILTERS['username'], 'a"b\\cé']]);
  });

  it('Entra checks group membership with displayName, id and members', () => {
    expect(groups('displayName eq "Engineering"')).toEqual([[GROUP_FILTERS['displayname'], 'Engineering']]);
    expect(groups('id eq "g1" and members eq "u1"')).toEqual([[GROUP_FILTERS['id'], 'g1'], [GROUP_FILTERS['members'], 'u1']]);
    expect(groups('members.value eq "u1"')).toEqual([[GROUP_FILTERS['members.value'], 'u1']]);
  });

  it('refuses what it does not support with invalidFilter, naming the problem', () => {
    expect(refused('userName co "a"').message).toMatch(/attribute eq "value"/);
    expect(refused('userName eq "a" or userName eq "b"').message).toMatch(/only and/);
    expect(refused('(userName eq "a")').message).toMatch(/Unsupported filter/);
    expect(refused('userName eq "a" and').message).toMatch(/Unsupported filter/);
    expect(refused('title eq "CEO"').message).toMatch(/title is not supported/);
    expect(refused('displayName eq "x"').message).toMatch(/supported: username/);
    expect(refused(String.raw`userName eq "\q"`).message).toMatch(/not a valid string/);
    expect(refused('userName eq "unterminated').message).toMatch(/Unsupported filter/);
    expect(refused('userName eq a@b.c').message).toMatch(/Unsupported filter/);
  });

  it('refuses names of Object.prototype members like any other unknown attribute', () => {
    for (const name of ['constructor', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf']) {
      expect(refused(`${name} eq "x"`).message).toMatch(/is not supported/);
      expect(refused(`${name} eq "x"`, GROUP_FILTERS).message).toMatch(/is not supported/);
    }
  });
});

/** Attribute spellings the parser must accept: any case, with or without the core schema URN. */
const attributeName = fc
  .tuple(fc.constantFrom('userName', 'externalId', 'id', 'active'), fc.boolean(), fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }))
  .map(([name, urn, upper]) => ({
    key: name.toLowerCase(),
    text: (urn ? 'urn:ietf:params:scim:schemas:core:2.0:User:' : '') + [...name].map((ch, i) => (upper[i] ? ch.toUpperCase() : ch.toLowerCase())).join(''),
  }));
const value = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }).map((v) => ({ value: v as string | boolean | null, text: JSON.stringify(v) })),
  fc.constantFrom(true, false, null).chain((v) => fc.constantFrom(String(v), String(v).toUpperCase()).map((text) => ({ value: v, text }))),
);
const blanks = fc.constantFrom(' ', '  ', '\t', ' \n ');
const term = fc.tuple(attributeName, value, blanks, blanks).map(([a, v, s1, s2]) => ({ expected: [USER_FILTERS[a.key], v.value], text: `${a.text}${s1}eq${s2}${v.text}` }));

/** Fragments of the full RFC 7644 grammar and of JavaScript, to build inputs close to valid ones. */
const fragment = fc.constantFrom(
  'userName', 'externalId', 'active', 'members', 'value', 'constructor', '__proto__', 'toString', 'urn:ietf:params:scim:schemas:core:2.0:User:',
  ' eq ', ' ne ', ' co ', ' sw ', ' pr', ' gt ', ' and ', ' or ', 'not ', '(', ')', '[', ']', '"', '\\', '\\"', '\\u', 'true', 'false', 'null', ' ', '.', ':',
  '"a@b.c"', '\u0000', '\n', '\u2028', '😀',
);
const nearlyFilter = fc.array(fc.oneof(fragment, fc.string({ maxLength: 3 })), { maxLength: 25 }).map((parts) => parts.join(''));

describe('SCIM filter properties', () => {
  it('every generated filter of eq terms joined by and parses to its terms, in order', () => {
    fc.assert(
      fc.property(fc.array(term, { minLength: 1, maxLength: 5 }), fc.array(blanks, { minLength: 5, maxLength: 5 }), (terms, joins) => {
        const text = terms.map((t) => t.text).reduce((acc, t, i) => `${acc}${joins[i]}and${joins[(i + 1) % 5]}${t}`);
        expect(users(text)).toEqual(terms.map((t) => t.expected));
      }),
    );
  });

  it('any input either parses to supported attributes or is refused with invalidFilter, never another error', () => {
    const supported = new Set(Object.values(USER_FILTERS));
    fc.assert(
      fc.property(fc.oneof(nearlyFilter, fc.string({ unit: 'binary', maxLength: 80 })), (filter) => {
        let result: ReturnType<typeof users>;
        try {
          result = users(filter);
        } catch (e) {
          expect(e).toBeInstanceOf(ScimInvalidFilterError);
          return;
        }
        for (const [attribute, v] of result) {
          expect(supported.has(attribute)).toBe(true);
          expect(['string', 'boolean'].includes(typeof v) || v === null).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('deep parentheses and very long inputs are refused with invalidFilter, not a stack overflow', () => {
    refused('('.repeat(100_000) + 'userName eq "a"' + ')'.repeat(100_000));
    refused('not ('.repeat(50_000));
    refused(Array.from({ length: 20_000 }, () => 'userName eq "a"').join(' and ') + ' or');
    refused(`userName eq "${'\\"'.repeat(100_000)}`);
  });
});
