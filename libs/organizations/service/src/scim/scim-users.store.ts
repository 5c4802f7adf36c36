import { type EntityManager } from 'typeorm';
import {
  type ScimListRpc as ScimListQuery,
  ScimResourceNotFoundError,
  type ScimUserRecord,
} from '@hub/organizations-contract';
import { type ScimAttributes } from './scim-filter';
import { ScimPageStore } from './scim-page.store';
import { ISO } from './scim-org';
import { type ScimUserState } from './scim-user.state';

interface Row {
  id: string;
  user_id: string;
  hub_name: string;
  user_name: string;
  external_id: string | null;
  given_name: string | null;
  family_name: string | null;
  emails: string;
  active: boolean;
  version: number;
  created: string;
  last_modified: string;
}

const COLUMNS = `id, user_id, hub_name, user_name, external_id, given_name, family_name, emails, active, version,
  ${ISO('created_at')} AS created, ${ISO('updated_at')} AS last_modified`;

/**
 * The filterable (and, single-valued, sortable) attributes of Users, lower case, as /Schemas
 * lists them (decision 0421). E-mail types are not kept: a type names the primary address.
 */
export const USER_FILTERS: ScimAttributes = {
  username: { sql: 'user_name', type: 'string' },
  externalid: { sql: 'external_id', type: 'string', caseExact: true },
  id: { sql: 'id', type: 'string', caseExact: true },
  active: { sql: 'active', type: 'boolean' },
  'name.givenname': { sql: 'given_name', type: 'string' },
  'name.familyname': { sql: 'family_name', type: 'string' },
  emails: {
    sql: 'EXISTS (SELECT 1 FROM jsonb_array_elements_text(emails::jsonb) WITH ORDINALITY AS e(value, n) WHERE :cond)',
    type: 'string',
    element: 'e',
    sub: {
      value: { sql: 'e.value', type: 'string' },
      primary: { sql: '(e.n = 1)', type: 'boolean' },
      type: { sql: 'e.n = 1', type: 'unkept' },
    },
  },
  'meta.created': { sql: 'created_at', type: 'dateTime' },
  'meta.lastmodified': { sql: 'updated_at', type: 'dateTime' },
};

function toRecord(r: Row): ScimUserRecord {
  return {
    id: r.id,
    userId: r.user_id,
    hubName: r.hub_name,
    userName: r.user_name,
    externalId: r.external_id,
    givenName: r.given_name,
    familyName: r.family_name,
    emails: JSON.parse(r.emails) as string[],
    active: r.active,
    created: r.created,
    lastModified: r.last_modified,
    version: r.version,
  };
}

export function stateOf(r: ScimUserRecord): ScimUserState {
  return {
    userName: r.userName,
    externalId: r.externalId,
    givenName: r.givenName,
    familyName: r.familyName,
    emails: r.emails,
    active: r.active,
  };
}

/** A provisioned user as a resource group lists it. */
export interface ProvisionedUserRow {
  id: string;
  user_id: string;
  hub_name: string;
  fullname: string;
}

/** The `scim_users` rows of one organization (decision 0420). */
export const ScimUsersStore = {
  /** The organization's provisioned users among these SCIM ids (unknown ids are left out). */
  provisioned(m: EntityManager, organizationId: string, ids: string[]): Promise<ProvisionedUserRow[]> {
    return m.query(
      `SELECT id, user_id, hub_name, trim(concat_ws(' ', given_name, family_name)) AS fullname FROM organizations.scim_users
      WHERE organization_id = $1 AND id = ANY($2)`,
      [organizationId, ids],
    );
  },

  async get(m: EntityManager, organizationId: string, id: string, lock = false): Promise<ScimUserRecord> {
    const [row] = (await m.query(
      `SELECT ${COLUMNS} FROM organizations.scim_users WHERE organization_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
      [organizationId, id],
    )) as Row[];
    if (!row) throw new ScimResourceNotFoundError('User', id);
    return toRecord(row);
  },

  /** Remembers the account of a deprovisioned userName (any case), for a later provisioning of the same. */
  async rememberDeprovisioned(
    m: EntityManager,
    organizationId: string,
    userName: string,
    userId: string,
  ): Promise<void> {
    await m.query(
      `INSERT INTO organizations.scim_deprovisioned (organization_id, user_name_key, user_id) VALUES ($1, lower($2), $3)
       ON CONFLICT (organization_id, user_name_key) DO UPDATE SET user_id = EXCLUDED.user_id, deprovisioned_at = now()`,
      [organizationId, userName, userId],
    );
  },

  /** The account a deprovisioned userName had, unless that account is provisioned here again under another. */
  async formerAccount(m: EntityManager, organizationId: string, userName: string): Promise<string | undefined> {
    const [row] = (await m.query(
      `SELECT d.user_id FROM organizations.scim_deprovisioned d
        WHERE d.organization_id = $1 AND d.user_name_key = lower($2)
          AND NOT EXISTS (SELECT 1 FROM organizations.scim_users u WHERE u.organization_id = $1 AND u.user_id = d.user_id)`,
      [organizationId, userName],
    )) as { user_id: string }[];
    return row?.user_id;
  },

  async forgetDeprovisioned(m: EntityManager, organizationId: string, userName: string): Promise<void> {
    await m.query(
      `DELETE FROM organizations.scim_deprovisioned WHERE organization_id = $1 AND user_name_key = lower($2)`,
      [organizationId, userName],
    );
  },

  async byName(m: EntityManager, organizationId: string, userName: string): Promise<string | null> {
    const [row] = (await m.query(
      `SELECT id FROM organizations.scim_users WHERE organization_id = $1 AND lower(user_name) = lower($2)`,
      [organizationId, userName],
    )) as { id: string }[];
    return row?.id ?? null;
  },

  async list(
    m: EntityManager,
    organizationId: string,
    q: ScimListQuery,
  ): Promise<{ total: number; items: ScimUserRecord[] }> {
    const { total, rows } = await ScimPageStore.page<Row>(
      m,
      {
        table: 'organizations.scim_users',
        columns: COLUMNS,
        where: 'organization_id = $1',
        values: [organizationId],
        attributes: USER_FILTERS,
      },
      q,
    );
    return { total, items: rows.map(toRecord) };
  },

  async insert(
    m: EntityManager,
    row: { id: string; organizationId: string; userId: string; hubName: string },
    s: ScimUserState,
  ): Promise<void> {
    await m.query(
      `INSERT INTO organizations.scim_users (id, organization_id, user_id, hub_name, user_name, external_id, given_name, family_name, emails, active)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        row.id,
        row.organizationId,
        row.userId,
        row.hubName,
        s.userName,
        s.externalId,
        s.givenName,
        s.familyName,
        JSON.stringify(s.emails),
        s.active,
      ],
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
