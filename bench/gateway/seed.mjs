// Bench databases and their data: fresh databases (dropped at the end), 100,000 tokens written
// with one SQL statement, and the whoami users created through the admin API as a client would.
import { randomInt } from 'node:crypto';
import pg from 'pg';

const ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function databaseUrl(name) {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withClient(url, fn) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export function createDatabase(name) {
  return withClient(ADMIN_URL, (c) => c.query(`CREATE DATABASE "${name}"`));
}

export function dropDatabase(name) {
  return withClient(ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

export function randomBase62(length) {
  let s = '';
  for (let i = 0; i < length; i++) s += BASE62[randomInt(62)];
  return s;
}

/** The raw token number i of a seeded set: `hf_` + 8-char set tag + i on 26 digits (34 chars). */
export function seededToken(tag, i) {
  return `hf_${tag}${String(i).padStart(26, '0')}`;
}

/**
 * `count` write tokens spread over `users` users, straight into the credentials schema, with
 * token_hash = sha256 hex of the raw token computed by Postgres, as the service would store it.
 */
export async function seedTokens(url, { tag, users, count }) {
  return withClient(url, async (c) => {
    await c.query(
      `INSERT INTO credentials.users (id, name, email, fullname)
       SELECT 'b0' || lpad(to_hex(u), 22, '0'), 'bench-${tag}-' || u, 'u' || u || '@bench.local', 'Bench user ' || u
         FROM generate_series(0, $1::int - 1) u`,
      [users],
    );
    await c.query(
      `INSERT INTO credentials.access_tokens (id, user_id, token_hash, last4, role, display_name)
       SELECT 'b1' || lpad(to_hex(i), 22, '0'),
              'b0' || lpad(to_hex(i % $2::int), 22, '0'),
              encode(sha256(convert_to(raw, 'UTF8')), 'hex'),
              right(raw, 4), 'write', 'bench token ' || i
         FROM (SELECT i, 'hf_' || $3::text || lpad(i::text, 26, '0') AS raw FROM generate_series(0, $1::int - 1) i) s`,
      [count, users, tag],
    );
    await c.query('ANALYZE credentials.users, credentials.access_tokens');
  });
}

export function countRevoked(url, tag) {
  return withClient(url, async (c) => {
    const { rows } = await c.query(
      `SELECT count(*)::int AS n FROM credentials.access_tokens WHERE revoked_at IS NOT NULL AND token_hash IN (
         SELECT encode(sha256(convert_to('hf_' || $1::text || lpad(i::text, 26, '0'), 'UTF8')), 'hex') FROM generate_series(0, 99999) i)`,
      [tag],
    );
    return rows[0].n;
  });
}

async function admin(base, adminToken, path, body) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`POST ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

/**
 * `users` users with one write token each through the admin API, and one organization per
 * ten users (they are its admins), so whoami's organization lookup returns a row.
 */
export async function seedWhoamiUsers(base, adminToken, { tag, users }) {
  const tokens = [];
  const names = [];
  for (let i = 0; i < users; i++) {
    const name = `w-${tag}-${i}`;
    await admin(base, adminToken, '/admin/users', { name, email: `${name}@bench.local` });
    const created = await admin(base, adminToken, `/admin/users/${name}/tokens`, {
      role: 'write',
      displayName: 'bench',
    });
    tokens.push(created.token);
    names.push(name);
  }
  for (let o = 0; o * 10 < users; o++) {
    await admin(base, adminToken, '/admin/organizations', {
      name: `o-${tag}-${o}`,
      plan: 'team',
      admins: names.slice(o * 10, o * 10 + 10),
    });
  }
  // orgs[i]: the organization of the user of tokens[i] (the members read asks for it).
  const orgs = names.map((_, i) => `o-${tag}-${Math.floor(i / 10)}`);
  return { tokens, names, orgs };
}

/** One whoami through the server under test: it must know the token's user. */
export async function checkWhoami(base, token, expectedName) {
  const res = await fetch(`${base}/api/whoami-v2`, { headers: { authorization: `Bearer ${token}` } });
  const body = await res.json();
  if (res.status !== 200 || body.name !== expectedName) {
    throw new Error(`whoami check at ${base}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  }
  return body;
}

/** The members of token 0's organization through the server under test: its ten users. */
export async function checkMembers(base, token, org) {
  const res = await fetch(`${base}/api/organizations/${org}/members`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = await res.json();
  if (res.status !== 200 || !Array.isArray(body) || body.length !== 10) {
    throw new Error(`members check at ${base}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  }
  return body;
}

/** Deletes the JetStream streams the distributed run created under its own bus prefix. */
export async function dropBusStreams(natsUrl, busPrefix) {
  const { connect } = await import('nats');
  const nc = await connect({ servers: natsUrl.split(','), name: 'bench-cleanup' });
  try {
    const jsm = await nc.jetstreamManager();
    const mine = `${busPrefix.toUpperCase().replace(/-/g, '_')}_`;
    const names = [];
    for await (const info of jsm.streams.list()) if (info.config.name.startsWith(mine)) names.push(info.config.name);
    for (const name of names) await jsm.streams.delete(name);
    return names;
  } finally {
    await nc.close();
  }
}

export function postgresVersion() {
  return withClient(ADMIN_URL, async (c) => (await c.query('SHOW server_version')).rows[0].server_version);
}

/** Transactions (each statement outside a transaction is one) committed or rolled back so far in a database. */
export function transactions(dbUrl) {
  const name = new URL(dbUrl).pathname.slice(1);
  return withClient(ADMIN_URL, async (c) => {
    await c.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await c.query(
      'SELECT (xact_commit + xact_rollback)::bigint AS n FROM pg_stat_database WHERE datname = $1',
      [name],
    );
    return Number(rows[0]?.n ?? 0);
  });
}
