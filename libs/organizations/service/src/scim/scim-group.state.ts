import { ScimInvalidValueError, ScimMutabilityError } from '@hub/organizations-contract';
import { expandScimOp, lowerKeys, type ScimOp } from './scim-patch';

/** What a SCIM Group is here: a resource group's name and the provisioned users in it (by SCIM user id). */
export interface ScimGroupState {
  displayName: string;
  externalId: string | null;
  members: string[];
}

function displayName(value: unknown): string {
  if (typeof value !== 'string' || value.length < 1 || value.length > 200)
    throw new ScimInvalidValueError('displayName must be 1..200 characters long');
  return value;
}

function externalId(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string' || value.length > 512)
    throw new ScimInvalidValueError('externalId must be a string of at most 512 characters');
  return value;
}

/** Member ids from [{value}] (or plain strings), in order, once each. */
function memberIds(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  const items = Array.isArray(value) ? value : [value];
  return [
    ...new Set(
      items.map((item, i) => {
        const v =
          typeof item === 'object' && item !== null ? lowerKeys(item as Record<string, unknown>)['value'] : item;
        if (typeof v !== 'string' || v === '') throw new ScimInvalidValueError(`members[${i}].value must be a user id`);
        return v;
      }),
    ),
  ];
}

/** A whole Group resource (POST, PUT); unknown attributes ignored. */
export function readScimGroup(resource: Record<string, unknown>): ScimGroupState {
  const r = lowerKeys(resource);
  if (r['displayname'] === undefined) throw new ScimInvalidValueError('displayName is required');
  return {
    displayName: displayName(r['displayname']),
    externalId: externalId(r['externalid']),
    members: memberIds(r['members']),
  };
}

/** Applies PATCH operations, including Entra's `members[value eq "id"]` removal and Okta's member lists. */
export function applyScimGroupPatch(state: ScimGroupState, ops: ScimOp[]): ScimGroupState {
  let s = state;
  for (const { op, path, value } of ops.flatMap(expandScimOp)) {
    if (path.attr === 'displayname') {
      if (op === 'remove') throw new ScimMutabilityError('displayName is required');
      s = { ...s, displayName: displayName(value) };
    } else if (path.attr === 'externalid') {
      s = { ...s, externalId: op === 'remove' ? null : externalId(value) };
    } else if (path.attr === 'members') {
      if (op === 'add') s = { ...s, members: [...new Set([...s.members, ...memberIds(value)])] };
      else if (op === 'replace') s = { ...s, members: memberIds(value) };
      else if (path.where?.field === 'value')
        s = { ...s, members: s.members.filter((id) => id !== String(path.where?.value)) };
      else if (value === undefined || value === null) s = { ...s, members: [] };
      else {
        const gone = new Set(memberIds(value));
        s = { ...s, members: s.members.filter((id) => !gone.has(id)) };
      }
    }
  }
  return s;
}
