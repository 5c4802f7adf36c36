import { type EntityManager } from 'typeorm';
import {
  type ScimGroupRecord,
  type ScimListRpc as ScimListQuery,
  ScimResourceNotFoundError,
} from '@hub/organizations-contract';
import { type ScimAttributes } from './scim-filter';
import { ScimPageStore } from './scim-page.store';
import { ISO } from './scim-org';

interface Row {
  id: string;
  name: string;
  scim_external_id: string | null;
  scim_version: number;
  created: string;
  last_modified: string;
}

const COLUMNS = `id, name, scim_external_id, scim_version, ${ISO('created_at')} AS created, ${ISO('updated_at')} AS last_modified`;

/** The filterable attributes of Groups, lower case, as /Schemas lists them; members are provisioned users (SCIM ids). */
export const GROUP_FILTERS: ScimAttributes = {
  displayname: { sql: 'name', type: 'string' },
  externalid: { sql: 'scim_external_id', type: 'string', caseExact: true },
  id: { sql: 'id', type: 'string', caseExact: true },
  members: {
    sql: `EXISTS (SELECT 1 FROM organizations.resource_group_users g JOIN organizations.scim_users s ON s.user_id = g.user_id AND s.organization_id = $1
      WHERE g.group_id = resource_groups.id AND :cond)`,
    type: 'string',
    element: 's',
    sub: { value: { sql: 's.id', type: 'string', caseExact: true }, display: { sql: 's.user_name', type: 'string' } },
  },
  'meta.created': { sql: 'created_at', type: 'dateTime' },
  'meta.lastmodified': { sql: 'updated_at', type: 'dateTime' },
};

async function membersOf(
  m: EntityManager,
  organizationId: string,
  ids: string[],
): Promise<Map<string, { value: string; display: string }[]>> {
  const rows =
    ids.length === 0
      ? []
      : ((await m.query(
          `SELECT g.group_id, s.id AS value, s.user_name AS display FROM organizations.resource_group_users g
       JOIN organizations.scim_users s ON s.user_id = g.user_id AND s.organization_id = $1
      WHERE g.group_id = ANY($2) ORDER BY g.added_at, s.user_name`,
          [organizationId, ids],
        )) as { group_id: string; value: string; display: string }[]);
  const out = new Map<string, { value: string; display: string }[]>(ids.map((id) => [id, []]));
  for (const r of rows) out.get(r.group_id)?.push({ value: r.value, display: r.display });
  return out;
}

function toRecord(r: Row, members: { value: string; display: string }[]): ScimGroupRecord {
  return {
    id: r.id,
    displayName: r.name,
    externalId: r.scim_external_id,
    members,
    created: r.created,
    lastModified: r.last_modified,
    version: r.scim_version,
  };
}

/** The organization's first resource group of a name, locked, with what decides whether SCIM may take it over. */
export interface LinkCandidateRow {
  id: string;
  scim_linked: boolean;
  auto_join: string;
  users: number;
}

/** Resource groups linked to SCIM groups (decision 0420). */
export const ScimGroupsStore = {
  async linkCandidate(m: EntityManager, organizationId: string, name: string): Promise<LinkCandidateRow | undefined> {
    const [existing] = (await m.query(
      `SELECT id, scim_linked, auto_join, (SELECT count(*)::int FROM organizations.resource_group_users u WHERE u.group_id = g.id) AS users
         FROM organizations.resource_groups g WHERE organization_id = $1 AND lower(name) = lower($2) ORDER BY created_at LIMIT 1 FOR UPDATE`,
      [organizationId, name],
    )) as LinkCandidateRow[];
    return existing;
  },

  async link(m: EntityManager, id: string, externalId: string | null): Promise<void> {
    await m.query(
      `UPDATE organizations.resource_groups SET scim_linked = true, scim_external_id = $2, updated_at = now() WHERE id = $1`,
      [id, externalId],
    );
  },

  async insertLinked(
    m: EntityManager,
    g: { id: string; organizationId: string; name: string; externalId: string | null },
  ): Promise<void> {
    await m.query(
      `INSERT INTO organizations.resource_groups (id, organization_id, name, scim_linked, scim_external_id) VALUES ($1, $2, $3, true, $4)`,
      [g.id, g.organizationId, g.name, g.externalId],
    );
  },

  /** The group stays a resource group (with its repositories), no longer managed by SCIM. */
  async unlink(m: EntityManager, id: string): Promise<void> {
    await m.query(
      `UPDATE organizations.resource_groups SET scim_linked = false, scim_external_id = NULL, updated_at = now() WHERE id = $1`,
      [id],
    );
  },

  /** Name and externalId as the identity provider says; moves the version (ETag). */
  async update(m: EntityManager, id: string, name: string, externalId: string | null): Promise<void> {
    await m.query(
      `UPDATE organizations.resource_groups SET name = $2, scim_external_id = $3, scim_version = scim_version + 1, updated_at = now() WHERE id = $1`,
      [id, name, externalId],
    );
  },

  async get(m: EntityManager, organizationId: string, id: string, lock = false): Promise<ScimGroupRecord> {
    const [row] = (await m.query(
      `SELECT ${COLUMNS} FROM organizations.resource_groups WHERE organization_id = $1 AND id = $2 AND scim_linked${lock ? ' FOR UPDATE' : ''}`,
      [organizationId, id],
    )) as Row[];
    if (!row) throw new ScimResourceNotFoundError('Group', id);
    return toRecord(row, (await membersOf(m, organizationId, [id])).get(id) ?? []);
  },

  async list(
    m: EntityManager,
    organizationId: string,
    q: ScimListQuery,
  ): Promise<{ total: number; items: ScimGroupRecord[] }> {
    const { total, rows } = await ScimPageStore.page<Row>(
      m,
      {
        table: 'organizations.resource_groups',
        columns: COLUMNS,
        where: 'organization_id = $1 AND scim_linked',
        values: [organizationId],
        attributes: GROUP_FILTERS,
      },
      q,
    );
    const members = await membersOf(
      m,
      organizationId,
      rows.map((r) => r.id),
    );
    return { total, items: rows.map((r) => toRecord(r, members.get(r.id) ?? [])) };
  },
};
