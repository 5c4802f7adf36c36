import fc from 'fast-check';
import { BadRequestError } from '@hub/contracts';
import { ScimInvalidPathError, ScimInvalidValueError, ScimNoTargetError } from '@hub/organizations-contract';
import { applyScimGroupPatch } from './scim-group.state';
import { expandScimOp, parseScimPatch, scimBoolean } from './scim-patch';
import { applyScimUserPatch, type ScimUserState } from './scim-user.state';

/**
 * PATCH bodies as Okta and Entra ID send them (RFC 7644 3.5.2, with their quirks), as the changes
 * they make: each op expanded to (op, attribute, sub-attribute, filter, value) and applied to a user.
 */
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const changes = (...ops: Record<string, unknown>[]): unknown[] =>
  parseScimPatch({ schemas: [PATCH_OP], Operations: ops }).flatMap(expandScimOp);

const jane: ScimUserState = {
  userName: 'jane',
  externalId: 'e1',
  givenName: 'Jane',
  familyName: 'Doe',
  emails: ['jane@example.com'],
  active: true,
};
const patchedUser = (...ops: Record<string, unknown>[]): ScimUserState =>
  applyScimUserPatch(jane, parseScimPatch({ Operations: ops }));

function refusedWith(kind: new (...a: never[]) => Error, body: Record<string, unknown>): Error {
  try {
    parseScimPatch(body).flatMap(expandScimOp);
  } catch (e) {
    expect(e).toBeInstanceOf(kind);
    return e as Error;
  }
  throw new Error(`PATCH ${JSON.stringify(body)} was accepted`);
}

describe('SCIM PATCH operations identity providers send', () => {
  it('Okta deactivates with a lower-case op and no path (the value names the attributes)', () => {
    expect(changes({ op: 'replace', value: { active: false } })).toEqual([
      { op: 'replace', path: { attr: 'active' }, value: false },
    ]);
    expect(patchedUser({ op: 'replace', value: { active: false } }).active).toBe(false);
  });

  it('Entra sends capitalised ops and booleans as the strings "True" and "False"', () => {
    expect(changes({ op: 'Replace', path: 'active', value: 'False' })).toEqual([
      { op: 'replace', path: { attr: 'active' }, value: 'False' },
    ]);
    expect(patchedUser({ op: 'Replace', path: 'active', value: 'False' }).active).toBe(false);
    expect(
      applyScimUserPatch(
        { ...jane, active: false },
        parseScimPatch({ Operations: [{ op: 'Replace', path: 'active', value: 'True' }] }),
      ).active,
    ).toBe(true);
    expect(
      changes({ op: 'Add', path: 'externalId', value: 'x' }, { op: 'REMOVE', path: 'externalId' }).map(
        (c) => (c as { op: string }).op,
      ),
    ).toEqual(['add', 'remove']);
  });

  it('Entra sets sub-attributes with dotted keys in a value without path, and with filtered paths', () => {
    expect(changes({ op: 'Add', value: { 'name.givenName': 'Janet', 'name.familyName': 'Roe' } })).toEqual([
      { op: 'add', path: { attr: 'name', sub: 'givenname' }, value: 'Janet' },
      { op: 'add', path: { attr: 'name', sub: 'familyname' }, value: 'Roe' },
    ]);
    expect(changes({ op: 'Replace', path: 'emails[type eq "work"].value', value: 'j@example.org' })).toEqual([
      {
        op: 'replace',
        path: { attr: 'emails', sub: 'value', where: { field: 'type', value: 'work' } },
        value: 'j@example.org',
      },
    ]);
    const after = patchedUser(
      { op: 'Add', value: { 'name.givenName': 'Janet' } },
      { op: 'Replace', path: 'emails[type eq "work"].value', value: 'j@example.org' },
    );
    expect(after).toMatchObject({ givenName: 'Janet', familyName: 'Doe', emails: ['j@example.org'] });
  });

  it('Entra removes one group member with members[value eq "…"]; Okta replaces the member list', () => {
    expect(changes({ op: 'Remove', path: 'members[value eq "2819c223-7f76-453a-919d-413861904646"]' })).toEqual([
      {
        op: 'remove',
        path: { attr: 'members', where: { field: 'value', value: '2819c223-7f76-453a-919d-413861904646' } },
        value: undefined,
      },
    ]);
    const group = { displayName: 'Eng', externalId: null, members: ['u1', 'u2', 'u3'] };
    expect(
      applyScimGroupPatch(group, parseScimPatch({ Operations: [{ op: 'Remove', path: 'members[value eq "u2"]' }] }))
        .members,
    ).toEqual(['u1', 'u3']);
    expect(
      applyScimGroupPatch(
        group,
        parseScimPatch({ Operations: [{ op: 'replace', path: 'members', value: [{ value: 'u9' }, { value: 'u1' }] }] }),
      ).members,
    ).toEqual(['u9', 'u1']);
    expect(
      applyScimGroupPatch(
        group,
        parseScimPatch({ Operations: [{ op: 'Add', path: 'members', value: [{ value: 'u4' }, { value: 'u1' }] }] }),
      ).members,
    ).toEqual(['u1', 'u2', 'u3', 'u4']);
  });

  it('reads the core schema URN in paths and keeps extension attributes whole (then ignores them)', () => {
    expect(
      changes({ op: 'replace', path: 'urn:ietf:params:scim:schemas:core:2.0:User:userName', value: 'janet' }),
    ).toEqual([{ op: 'replace', path: { attr: 'username' }, value: 'janet' }]);
    const department = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department';
    expect(changes({ op: 'Add', path: department, value: 'R&D' })).toEqual([
      { op: 'add', path: { attr: department.toLowerCase() }, value: 'R&D' },
    ]);
    expect(patchedUser({ op: 'Add', path: department, value: 'R&D' })).toEqual(jane);
  });

  it('accepts the Operations key in any case', () => {
    expect(parseScimPatch({ operations: [{ op: 'add', path: 'externalId', value: 'x' }] })).toHaveLength(1);
  });

  it('refuses malformed messages with the SCIM error for each problem', () => {
    expect(refusedWith(ScimInvalidValueError, { schemas: [PATCH_OP] }).message).toMatch(/non-empty list/);
    expect(refusedWith(ScimInvalidValueError, { Operations: [] }).message).toMatch(/non-empty list/);
    expect(refusedWith(ScimInvalidValueError, { Operations: 'replace' }).message).toMatch(/non-empty list/);
    expect(
      refusedWith(ScimInvalidValueError, { Operations: Array.from({ length: 1001 }, () => ({ op: 'add', value: {} })) })
        .message,
    ).toMatch(/at most 1000/);
    expect(refusedWith(ScimInvalidValueError, { Operations: [null] }).message).toMatch(
      /Operations\[0\] must be an object/,
    );
    expect(refusedWith(ScimInvalidValueError, { Operations: [{ op: 'move', path: 'active' }] }).message).toMatch(
      /add, replace or remove/,
    );
    expect(refusedWith(ScimNoTargetError, { Operations: [{ op: 'Remove' }] }).message).toMatch(/remove needs a path/);
    expect(refusedWith(ScimInvalidValueError, { Operations: [{ op: 'Replace', value: 'False' }] }).message).toMatch(
      /value must be an object/,
    );
    refusedWith(ScimInvalidPathError, { Operations: [{ op: 'remove', path: 'members[value co "x"]' }] });
    refusedWith(ScimInvalidPathError, { Operations: [{ op: 'remove', path: 'members[value eq "x"' }] });
    refusedWith(ScimInvalidPathError, { Operations: [{ op: 'replace', path: '1name', value: 'x' }] });
    refusedWith(ScimInvalidPathError, { Operations: [{ op: 'add', value: { 'bad path!': 1 } }] });
  });

  it('refuses a filter value that is not a JSON string with invalidPath, not a 500', () => {
    refusedWith(ScimInvalidPathError, { Operations: [{ op: 'remove', path: String.raw`members[value eq "\q"]` }] });
    refusedWith(ScimInvalidPathError, { Operations: [{ op: 'remove', path: 'members[value eq "a\u0001b"]' }] });
  });

  it('takes a null value on an e-mail value path without a TypeError (a 500; found by the property below)', () => {
    expect(() => patchedUser({ op: 'add', path: 'emails[primary eq true]', value: null })).not.toThrow(TypeError);
  });

  it('reads booleans as Entra sends them and refuses anything else', () => {
    expect([true, false, 'True', 'FALSE', ' true '].map((v) => scimBoolean(v, 'active'))).toEqual([
      true,
      false,
      true,
      false,
      true,
    ]);
    for (const v of ['yes', 1, 0, null, undefined, {}, 'truthy'])
      expect(() => scimBoolean(v, 'active')).toThrow(ScimInvalidValueError);
  });
});

/** Any casing of a word, as identity providers vary it. */
const anyCase = (word: string): fc.Arbitrary<string> =>
  fc
    .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
    .map((up) => [...word].map((c, i) => (up[i] ? c.toUpperCase() : c)).join(''));
const opName = fc.oneof(
  fc.constantFrom('add', 'replace', 'remove').chain(anyCase),
  fc.constantFrom('move', 'copy', 'test', ''),
  fc.anything(),
);
const pathText = fc.oneof(
  fc.constantFrom(
    'active',
    'userName',
    'externalId',
    'name',
    'name.givenName',
    'emails',
    'emails[type eq "work"].value',
    'emails[primary eq true]',
    'members',
    'members[value eq "u1"]',
    'displayName',
    'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager',
    'a.b.c',
    '[',
    'members[value eq "\\q"]',
  ),
  fc
    .array(
      fc.constantFrom('members', 'emails', 'value', '[', ']', ' eq ', '"', '\\', 'x', '.', 'true', 'urn:', ':', ' '),
      { maxLength: 12 },
    )
    .map((p) => p.join('')),
  fc.string({ unit: 'binary', maxLength: 40 }),
);
const operation = fc.record(
  {
    op: opName,
    path: fc.oneof(pathText, fc.anything()),
    value: fc.oneof(fc.jsonValue(), fc.dictionary(pathText, fc.jsonValue(), { maxKeys: 4 })),
  },
  { requiredKeys: [] },
);

/** SCIM errors are 400s (or 409s) with a SCIM_ code; anything else would reach the client as a 500. */
function expectScimError(e: unknown): void {
  expect(e).toBeInstanceOf(BadRequestError);
  expect((e as BadRequestError).code).toMatch(/^SCIM_/);
}

describe('SCIM PATCH properties', () => {
  it('any op name in any case is read as add, replace or remove', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('add', 'replace', 'remove').chain((op) => anyCase(op).map((text) => ({ op, text }))),
        ({ op, text }) => {
          expect(parseScimPatch({ Operations: [{ op: text, path: 'externalId', value: 'x' }] })[0]?.op).toBe(op);
        },
      ),
    );
  });

  it('random PATCH messages are applied to a user and a group or refused with a SCIM error, never another error', () => {
    const group = { displayName: 'Eng', externalId: null, members: ['u1'] };
    fc.assert(
      fc.property(fc.array(operation, { minLength: 1, maxLength: 4 }), (ops) => {
        let parsed: ReturnType<typeof parseScimPatch>;
        try {
          parsed = parseScimPatch({ Operations: ops });
          parsed.flatMap(expandScimOp);
        } catch (e) {
          expectScimError(e);
          return;
        }
        for (const apply of [() => applyScimUserPatch(jane, parsed), () => applyScimGroupPatch(group, parsed)]) {
          try {
            apply();
          } catch (e) {
            expectScimError(e);
          }
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('very long and deeply bracketed paths are refused with invalidPath, not a stack overflow or a stall', () => {
    for (const path of [
      'members['.repeat(50_000),
      `members[value eq "${'\\"'.repeat(50_000)}`,
      `${'a.'.repeat(50_000)}b`,
      `a[a${' '.repeat(50_000)}!`,
    ]) {
      refusedWith(ScimInvalidPathError, { Operations: [{ op: 'remove', path }] });
    }
  });

  it('a well-formed path is read back in lower case whatever the case it was sent in', () => {
    const name = fc.stringMatching(/^[A-Za-z]\w{0,10}$/);
    fc.assert(
      fc.property(
        name,
        fc.option(name, { nil: undefined }),
        fc.option(fc.tuple(name, fc.string({ maxLength: 20 })), { nil: undefined }),
        (attr, sub, where) => {
          const path = `${attr}${where ? `[${where[0]} eq ${JSON.stringify(where[1])}]` : ''}${sub ? `.${sub}` : ''}`;
          const [change] = changes({ op: 'remove', path });
          expect(change).toEqual({
            op: 'remove',
            path: {
              attr: attr.toLowerCase(),
              ...(sub ? { sub: sub.toLowerCase() } : {}),
              ...(where ? { where: { field: where[0].toLowerCase(), value: where[1] } } : {}),
            },
            value: undefined,
          });
        },
      ),
    );
  });
});
