// Seeds organizations.audit_events with SQL, as the ingest would have stored them: `doc` is the
// event as the export answers it (spec 2.9), the columns beside it are what q and the cursor read.
import { withClient } from '../notifications/seed.mjs';

export const TYPES = ['repo.create', 'org.add_user', 'repo.update_settings', 'resource_group.add_users'];
export const AUTHORS = 50;

/** `count` events of one organization, one a second back from now, types and authors round-robin, in batches. */
export async function seedAuditEvents(url, { organizationId, organization, count, publicUrl }) {
  await withClient(url, async (c) => {
    const batch = 100_000;
    for (let from = 0; from < count; from += batch) {
      await c.query(
        `INSERT INTO organizations.audit_events (id, organization_id, created_at, type, author, ip, doc)
         SELECT id, $1, at, type, author, ip, json_build_object(
                  '_id', id, 'createdAt', to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'type', type,
                  'data', json_build_object('repo', $2 || '/repo-' || i), 'message', type || ' #' || i, 'ip', ip, 'userAgent', 'bench/1.0',
                  'author', json_build_object('_id', lpad(to_hex(i % $5), 24, '0'), 'user', author, 'avatarUrl', $6 || '/avatars/' || author || '.svg', 'type', 'user'))::text
           FROM (SELECT i, lpad(to_hex(x'a0000000'::bigint + i), 24, '0') AS id, now() - (i || ' seconds')::interval AS at,
                        ($7::text[])[1 + i % 4] AS type, 'user' || (i % $5) AS author, '10.0.' || (i % 200) || '.1' AS ip
                   FROM generate_series($3::int, $4::int - 1) AS i) s`,
        [organizationId, organization, from, Math.min(count, from + batch), AUTHORS, publicUrl, TYPES],
      );
    }
    await c.query('ANALYZE organizations.audit_events');
  });
}

/** Events stored for one organization. */
export async function countOf(url, organizationId) {
  return withClient(url, async (c) => {
    const { rows } = await c.query(
      'SELECT count(*)::int AS n FROM organizations.audit_events WHERE organization_id = $1',
      [organizationId],
    );
    return rows[0].n;
  });
}

export async function deleteOrganizationEvents(url, organizationId) {
  await withClient(url, (c) =>
    c.query('DELETE FROM organizations.audit_events WHERE organization_id = $1', [organizationId]),
  );
}
