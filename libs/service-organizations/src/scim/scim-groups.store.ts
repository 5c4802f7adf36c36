import { type EntityManager } from 'typeorm';
import { type ScimGroupRecord, ScimResourceNotFoundError } from '@hub/contracts';
import { type ScimTerm } from './scim-filter';
import { ISO } from './scim-org';

interface Row { id: string; name: string; scim_external_id: string | null; scim_version: number; created: string; last_modified: string }

const COLUMNS = `id, name, scim_external_id, scim_version, ${ISO('created_at')} AS created, ${ISO('updated_at')} AS last_modified`;

/** Filter attributes of Groups (lower case) and the condition each one puts on a resource group. */
const MEMBER = `id IN (SELECT g.group_id FROM organizations.resource_group_users g JOIN organizations.scim_users s ON s.user_id = g.user_id
    AND s.organization_id = $1 WHERE s.id = :v)`;
export const GROUP_FILTERS: Readonly<Record<string, string>> = {
  displayname: 'lower(name) = lower(:v)', externalid: 'scim_external_id = :v', id: 'id = :v', members: MEMBER, 'members.value': MEMBER,
};

async function membersOf(m: EntityManager, organizationId: string, ids: string[]): Promise<Map<string, { value: string; display: string }[]>> {
  const rows = ids.length === 0 ? [] : (await m.query(
    `SELECT g.group_id, s.id AS value, s.user_name AS display FROM organizations.resource_group_users g
       JOIN organizations.scim_users s ON s.user_id = g.user_id AND s.organization_id = $1
      WHERE g.group_id = ANY($2) ORDER BY g.added_at, s.user_name`,
    [organizationId, ids],
  )) as { group_id: string; value: string; display: string }[];
  const out = new Map<string, { value: string; display: string }[]>(ids.map((id) => [id, []]));
  for (const r of rows) out.get(r.group_id)?.push({ value: r.value, display: r.display });
  return out;
}

function toRecord(r: Row, members: { value: string; display: string }[]): ScimGroupRecord {
  return { id: r.id, displayName: r.name, externalId: r.scim_external_id, members, created: r.created, lastModified: r.last_modified, version: r.scim_version };
}

/** Resource groups linked to SCIM groups (decision 0420). */
export const ScimGroupsStore = {
  async get(m: EntityManager, organizationId: string, id: string, lock = false): Promise<ScimGroupRecord> {
    const [row] = (await m.query(
      `SELECT ${COLUMNS} FROM organizations.resource_groups WHERE organization_id = $1 AND id = $2 AND scim_linked${lock ? ' FOR UPDATE' : ''}`,
      [organizationId, id],
    )) as Row[];
    if (!row) throw new ScimResourceNotFoundError('Group', id);
    return toRecord(row, (await membersOf(m, organizationId, [id])).get(id) ?? []);
  },

  async list(m: EntityManager, organizationId: string, terms: ScimTerm[], startIndex: number, count: number): Promise<{ total: number; items: ScimGroupRecord[] }> {
    const values: unknown[] = [organizationId];
    const where = ['organization_id = $1', 'scim_linked', ...terms.map((t) => {
      values.push(t.value === null ? null : String(t.value));
      return t.attribute.replace(':v', `$${values.length}`);
    })].join(' AND ');
    const [total] = (await m.query(`SELECT count(*)::int AS n FROM organizations.resource_groups WHERE ${where}`, values)) as { n: number }[];
    const rows = count === 0 ? [] : (await m.query(
      `SELECT ${COLUMNS} FROM organizations.resource_groups WHERE ${where} ORDER BY created_at, id OFFSET $${values.length + 1} LIMIT $${values.length + 2}`,
      [...values, startIndex - 1, count],
    )) as Row[];
    const members = await membersOf(m, organizationId, rows.map((r) => r.id));
    return { total: total?.n ?? 0, items: rows.map((r) => toRecord(r, members.get(r.id) ?? [])) };
  },
};
