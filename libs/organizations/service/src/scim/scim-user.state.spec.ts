import { ScimInvalidValueError, ScimMutabilityError } from '@hub/organizations-contract';
import { parseScimPatch } from './scim-patch';
import { applyScimUserPatch, readScimUser, type ScimUserState } from './scim-user.state';

/** userName as identity providers send it at their defaults (decision 0421). */
const base: ScimUserState = {
  userName: 'adele@contoso.com',
  externalId: null,
  givenName: null,
  familyName: null,
  emails: ['adele@contoso.com'],
  active: true,
};
const patch = (...ops: Record<string, unknown>[]): ScimUserState =>
  applyScimUserPatch(base, parseScimPatch({ Operations: ops }));

describe('SCIM user state: userName from the identity provider', () => {
  it('takes e-mail, UPN and guest forms as userName on create', () => {
    for (const userName of ['Ada.Lovelace@Example.com', 'adele#EXT#@contoso.onmicrosoft.com', 'CONTOSO\\adele', 'a']) {
      expect(readScimUser({ userName, emails: [{ value: 'a@b.co' }] }).userName).toBe(userName);
    }
  });

  it("keeps Entra's rename: Replace userName by path and without path", () => {
    expect(patch({ op: 'Replace', path: 'userName', value: 'adele.king@contoso.com' }).userName).toBe(
      'adele.king@contoso.com',
    );
    expect(patch({ op: 'replace', value: { userName: 'adele.v@contoso.com' } }).userName).toBe('adele.v@contoso.com');
  });

  it('refuses an empty, over-long or control-character userName, and its removal', () => {
    for (const userName of ['', ' ', 'a'.repeat(257), 'a\u0000b', 'a\nb']) {
      expect(() => readScimUser({ userName: userName === '' ? undefined : userName })).toThrow(ScimInvalidValueError);
    }
    expect(() => patch({ op: 'remove', path: 'userName' })).toThrow(ScimMutabilityError);
    expect(() => patch({ op: 'replace', path: 'userName', value: 'x\u0007' })).toThrow(ScimInvalidValueError);
  });
});
