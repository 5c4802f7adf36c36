import { type EntityManager } from 'typeorm';
import { ScimResourceNotFoundError, type ScimUserRecord } from '@hub/contracts';
import { type ScimTerm } from './scim-filter';
import { ISO } from './scim-org';
import { type ScimUserState } from './scim-user.state';

interface Row {
  id: string; user_id: string; hub_name: string; user_name: string; external_id: string | null; given_name: string | null; family_name: string | null;
  emails: string; active: boolean; version: number; created: string; last_modified: string;
}

const COLUMNS = `id, user_id, hub_name, user_name, external_id, given_name, family_name, emails, active, version,
  ${ISO('created_at')} AS created, ${ISO('updated_at')} AS last_modified`;

/** Filter attributes of Users (lower case) and the condition each one puts on a row. */
export const USER_FILTERS: Readonly<Record<string, string>> = {
  username: 'lower(user_name) = lower(:v)', externalid: 'external_id = :v', id: 'id = :v', active: 'active = :v',
};

function toRecord(r: Row): ScimUserRecord {
  return {
    id: r.id, userId: r.user_id, hubName: r.hub_name, userName: r.user_name, externalId: r.external_id, givenName: r.given_name, familyName: r.family_name,
    emails: JSON.parse(r.emails) as string[], active: r.active, created: r.created, lastModified: r.last_modified, version: r.version,
  };
}

export function stateOf(r: ScimUserRecord): ScimUserState {
  return { userName: r.userName, externalId: r.externalId, givenName: r.givenName, familyName: r.familyName, emails: r.emails, active: r.active };
}

/** The `scim_users` rows of one organization (decision 0420). */
export const ScimUsersStore = {
  async get(m: EntityManager, organizationId: string, id: string, lock = false): Promise<ScimUserRecord> {
    const [row] = (await m.query(
      `SELECT ${COLUMNS} FROM organizations.scim_users WHERE organization_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`, [organizationId, id],
    )) as Row[];
    if (!row) throw new ScimResourceNotFoundError('User', id);
    return toRecord(row);
  },

  async byName(m: EntityManager, organizationId: string, userName: string): Promise<string | null> {
    const [row] = (await m.query(
      `SELECT id FROM organizations.scim_users WHERE organization_id = $1 AND lower(user_name) = lower($2)`, [organizationId, userName],
    )) as { id: string }[];
    return row?.id ?? null;
  },

  async list(m: EntityManager, organizationId: string, terms: ScimTerm[], startIndex: number, count: number): Promise<{ total: number; items: ScimUserRecord[] }> {
    const values: unknown[] = [organizationId];
    const where = ['organization_id = $1', ...terms.map((t) => {
      values.push(t.attribute === 'active = :v' ? t.value === true : t.value === null ? null : String(t.value));
      return t.attribute.replace(':v', `$${values.length}`);
    })].join(' AND ');
    const [total] = (await m.query(`SELECT count(*)::int AS n FROM organizations.scim_users WHERE ${where}`, values)) as { n: number }[];
    const rows = count === 0 ? [] : (await m.query(
      `SELECT ${COLUMNS} FROM organizations.scim_users WHERE ${where} ORDER BY created_at, id OFFSET $${values.length + 1} LIMIT $${values.length + 2}`,
      [...values, startIndex - 1, count],
    )) as Row[];
    return { total: total?.n ?? 0, items: rows.map(toRecord) };
  },

  async insert(m: EntityManager, row: { id: string; organizationId: string; userId: string; hubName: string }, s: ScimUserState): Promise<void> {
    await m.query(
      `INSERT INTO organizations.scim_users (id, organization_id, user_id, hub_name, user_name, external_id, given_name, family_name, emails, active)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [row.id, row.organizationId, row.userId, row.hubName, s.userName, s.externalId, s.givenName, s.familyName, JSON.stringify(s.emails), s.active],
    );
  },

  async update(m: EntityManager, id: string, s: ScimUserState): Promise<void> {
    await m.query(
      `UPDATE organizations.scim_users SET user_name = $2, external_id = $3, given_name = $4, family_name = $5, emails = $6, active = $7,
         version = version + 1, updated_at = now() WHERE id = $1`,
      [id, s.userName, s.externalId, s.givenName, s.familyName, JSON.stringify(s.emails), s.active],
    );
  },
};
