import { ScimInvalidValueError, ScimMutabilityError } from '@hub/organizations-contract';
import { expandScimOp, lowerKeys, scimBoolean, type ScimOp, type ScimPath } from './scim-patch';

/** The SCIM user attributes the hub keeps (spec 5.7); anything else an identity provider sends is ignored. */
export interface ScimUserState {
  userName: string;
  externalId: string | null;
  givenName: string | null;
  familyName: string | null;
  emails: string[];
  active: boolean;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_EMAILS = 20;
const MAX_USER_NAME = 256;
// eslint-disable-next-line no-control-regex -- control characters are what this refuses
const CONTROL = /[\u0000-\u001f\u007f]/;

function text(value: unknown, name: string, max: number): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string' || value.length > max)
    throw new ScimInvalidValueError(`${name} must be a string of at most ${max} characters`);
  return value;
}

/** `emails` as a list of addresses: [{value, type?, primary?}] or plain strings; the primary one first. */
function emailsOf(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  const items = Array.isArray(value) ? value : [value];
  const entries = items.map((item) => {
    const o: Record<string, unknown> =
      typeof item === 'object' && item !== null ? lowerKeys(item as Record<string, unknown>) : { value: item };
    return {
      address: text(o['value'], 'emails.value', 254),
      primary: o['primary'] === true || o['primary'] === 'true' || o['primary'] === 'True',
    };
  });
  const sorted = [...entries.filter((e) => e.primary), ...entries.filter((e) => !e.primary)];
  return [...new Set(sorted.flatMap((e) => (e.address ? [e.address] : [])))];
}

/** The checks every state passes before it is stored. */
export function checkScimUser(s: ScimUserState): ScimUserState {
  // Decision 0421: userName is the identity provider's identifier (e-mail, UPN, any text), not the hub name.
  if (s.userName.trim() === '' || s.userName.length > MAX_USER_NAME || CONTROL.test(s.userName)) {
    throw new ScimInvalidValueError(`userName must be 1..${MAX_USER_NAME} characters without control characters`);
  }
  if (s.emails.length > MAX_EMAILS) throw new ScimInvalidValueError(`emails must hold at most ${MAX_EMAILS} addresses`);
  const bad = s.emails.find((e) => !EMAIL.test(e));
  if (bad) throw new ScimInvalidValueError(`emails: ${JSON.stringify(bad.slice(0, 100))} is not an e-mail address`);
  return s;
}

/** A whole User resource (POST, PUT): attribute names in any case, unknown ones ignored. */
export function readScimUser(resource: Record<string, unknown>): ScimUserState {
  const r = lowerKeys(resource);
  if (typeof r['username'] !== 'string' || r['username'] === '')
    throw new ScimInvalidValueError('userName is required');
  const name =
    typeof r['name'] === 'object' && r['name'] !== null ? lowerKeys(r['name'] as Record<string, unknown>) : {};
  return checkScimUser({
    userName: r['username'],
    externalId: text(r['externalid'], 'externalId', 512),
    givenName: text(name['givenname'], 'name.givenName', 200),
    familyName: text(name['familyname'], 'name.familyName', 200),
    emails: emailsOf(r['emails']),
    active: r['active'] === undefined || r['active'] === null ? true : scimBoolean(r['active'], 'active'),
  });
}

function applyName(s: ScimUserState, op: string, path: ScimPath, value: unknown): ScimUserState {
  const set = (key: 'givenName' | 'familyName', v: unknown): ScimUserState => ({
    ...s,
    [key]: op === 'remove' ? null : text(v, `name.${key}`, 200),
  });
  if (path.sub === 'givenname') return set('givenName', value);
  if (path.sub === 'familyname') return set('familyName', value);
  if (path.sub) return s;
  if (op === 'remove') return { ...s, givenName: null, familyName: null };
  const n = typeof value === 'object' && value !== null ? lowerKeys(value as Record<string, unknown>) : {};
  return {
    ...s,
    ...('givenname' in n ? { givenName: text(n['givenname'], 'name.givenName', 200) } : {}),
    ...('familyname' in n ? { familyName: text(n['familyname'], 'name.familyName', 200) } : {}),
  };
}

function applyEmails(s: ScimUserState, op: string, path: ScimPath, value: unknown): ScimUserState {
  if (path.where) {
    // E-mail types are not kept (spec 5.7): emails[type eq "work"] and emails[primary eq true] name the primary address.
    const byValue = path.where.field === 'value' ? String(path.where.value) : null;
    if (op === 'remove')
      return {
        ...s,
        emails: byValue ? s.emails.filter((e) => e.toLowerCase() !== byValue.toLowerCase()) : s.emails.slice(1),
      };
    const address = text(
      path.sub === 'value' || value === null || typeof value !== 'object'
        ? value
        : lowerKeys(value as Record<string, unknown>)['value'],
      'emails.value',
      254,
    );
    if (!address) return s;
    return { ...s, emails: [address, ...s.emails.slice(1).filter((e) => e !== address)] };
  }
  if (op === 'remove') return { ...s, emails: [] };
  const given = emailsOf(value);
  return { ...s, emails: op === 'add' ? [...new Set([...s.emails, ...given])] : given };
}

/** Applies PATCH operations to a user; attributes the hub does not keep are ignored. */
export function applyScimUserPatch(state: ScimUserState, ops: ScimOp[]): ScimUserState {
  let s = state;
  for (const { op, path, value } of ops.flatMap(expandScimOp)) {
    switch (path.attr) {
      case 'username':
        if (op === 'remove' || typeof value !== 'string')
          throw new ScimMutabilityError('userName is required and must be a string');
        s = { ...s, userName: value };
        break;
      case 'externalid':
        s = { ...s, externalId: op === 'remove' ? null : text(value, 'externalId', 512) };
        break;
      case 'active':
        if (op === 'remove') throw new ScimMutabilityError('active cannot be removed; set it to false');
        s = { ...s, active: scimBoolean(value, 'active') };
        break;
      case 'name':
        s = applyName(s, op, path, value);
        break;
      case 'emails':
        s = applyEmails(s, op, path, value);
        break;
      default:
        break;
    }
  }
  return checkScimUser(s);
}
