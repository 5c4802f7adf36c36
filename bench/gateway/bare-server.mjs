// The baseline: one process, no bus, no Nest. A plain Fastify route that hashes the bearer
// token and looks it up with one pg query (the credentials service's own SQL), answering a
// whoami-like JSON. Usage (by run.mjs): node bare-server.mjs <mode> <database url>
//   nocache   every request runs the token query (and nothing else: orgs stay empty)
//   cache     like the gateway: the verified token and the user's organizations (one more
//             query, the organizations service's) kept 30 s in Maps, so whoami at steady
//             state touches no database
// GET /api/organizations/:name/members (cache mode): the same auth as whoami (cached token and
// organizations: the caller must be a member), then the organizations service's members query
// on every request, as the gateway's one ListMembers RPC does.
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

const [mode, databaseUrl] = process.argv.slice(2);
const TTL_MS = 30_000;
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 }); // TypeORM's pool size in the services
const cache = new Map();

const TOKEN_SQL = `SELECT t.id AS token_id, t.user_id, t.role, t.display_name, t.created_at AS token_created_at,
       u.name, u.email, u.fullname, u.is_pro,
       (SELECT array_agg(r.organization_id) FROM credentials.org_token_revocations r WHERE r.token_id = t.id) AS revoked_orgs
  FROM credentials.access_tokens t JOIN credentials.users u ON u.id = t.user_id
 WHERE t.token_hash = $1 AND t.revoked_at IS NULL`;

const ORGS_SQL = `SELECT o.id, o.name, o.fullname, o.plan, m.role
  FROM organizations.organizations o JOIN organizations.members m ON m.organization_id = o.id
 WHERE m.user_id = $1 ORDER BY o.name`;

// The organizations service's ListMembers query (membership.use-cases.ts), word for word, and
// like it a named prepared statement (planned once per connection).
const MEMBERS_SQL = `SELECT m.user_id, m.user_name, m.role, to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS added_at
  FROM organizations.organizations o LEFT JOIN organizations.members m ON m.organization_id = o.id
 WHERE o.name = $1 ORDER BY m.user_name`;

const orgsCache = new Map();

function cached(map, key) {
  const hit = map.get(key);
  return hit && hit.expiresAt > Date.now() ? hit.value : undefined;
}

async function lookup(token) {
  const hash = createHash('sha256').update(token, 'utf8').digest('hex');
  if (mode === 'cache') {
    const hit = cached(cache, hash);
    if (hit) return hit;
  }
  const { rows } = await pool.query(TOKEN_SQL, [hash]);
  const row = rows[0];
  if (row && mode === 'cache') cache.set(hash, { value: row, expiresAt: Date.now() + TTL_MS });
  return row;
}

async function orgsOf(userId) {
  if (mode !== 'cache') return [];
  const hit = cached(orgsCache, userId);
  if (hit) return hit;
  const { rows } = await pool.query(ORGS_SQL, [userId]);
  orgsCache.set(userId, { value: rows, expiresAt: Date.now() + TTL_MS });
  return rows;
}

const app = Fastify({ logger: false });
app.get('/api/whoami-v2', async (req, reply) => {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  const row = m && m[1].length <= 200 ? await lookup(m[1]) : undefined;
  if (!row) return reply.code(401).send({ error: 'Invalid credentials' });
  const orgs = await orgsOf(row.user_id);
  return {
    type: 'user',
    id: row.user_id,
    name: row.name,
    fullname: row.fullname,
    email: row.email,
    emailVerified: true,
    avatarUrl: `http://localhost:8080/avatars/${encodeURIComponent(row.name)}.svg`,
    isPro: row.is_pro,
    orgs: orgs.map((o) => ({
      type: 'org',
      id: o.id,
      name: o.name,
      fullname: o.fullname,
      avatarUrl: '',
      roleInOrg: o.role,
      plan: o.plan,
    })),
    auth: {
      type: 'access_token',
      accessToken: { displayName: row.display_name, role: row.role, createdAt: row.token_created_at },
    },
  };
});
app.get('/api/organizations/:name/members', async (req, reply) => {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  const row = m && m[1].length <= 200 ? await lookup(m[1]) : undefined;
  if (!row) return reply.code(401).send({ error: 'Invalid credentials' });
  const { name } = req.params;
  if (!(await orgsOf(row.user_id)).some((o) => o.name === name))
    return reply.code(403).send({ error: `You are not a member of ${name}` });
  const { rows } = await pool.query({ name: 'organizations-member-list', text: MEMBERS_SQL, values: [name] });
  if (rows.length === 0) return reply.code(404).send({ error: `Organization ${name} not found` });
  return rows
    .filter((r) => r.user_id !== null)
    .map((r) => ({ _id: r.user_id, type: 'user', user: r.user_name, role: r.role }));
});
app.get('/health/ready', async () => {
  await pool.query('SELECT 1');
  return { status: 'ok' };
});

const port = Number(process.env.PORT ?? 0);
await app.listen({ port, host: '127.0.0.1' });
process.once('SIGTERM', async () => {
  await app.close();
  await pool.end();
  process.exit(0);
});
