/**
 * The hubctl commands: each one names its arguments and flags, builds one admin API request,
 * and prints a one-line summary of the answer (or the raw JSON with --json).
 */
import { readFileSync } from 'node:fs';
import { UsageError } from './args.mjs';
import { auditStreamCommands } from './audit-stream-commands.mjs';

const enc = encodeURIComponent;

function parsePayload(text, from) {
  let payload;
  try {
    payload = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${from} is not valid JSON: ${e.message}`);
  }
  // The server says the same, but a local check names the flag the user got wrong.
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload))
    throw new UsageError(`${from} must be a JSON object`);
  return payload;
}

function readPayload(flags) {
  const inline = flags.payload !== undefined;
  const file = flags['payload-file'];
  if (inline === (file !== undefined)) throw new UsageError('give exactly one of --payload and --payload-file');
  if (inline) return parsePayload(flags.payload, '--payload');
  let text;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read --payload-file ${file}: ${e.code ?? e.message}`);
  }
  return parsePayload(text, `--payload-file ${file}`);
}

/** `?search=…&limit=…` of a list command's flags (the hub checks both and names a bad one). */
function listQuery(f) {
  const q = new URLSearchParams();
  if (f.search !== undefined) q.set('search', f.search);
  if (f.limit !== undefined) q.set('limit', f.limit);
  const text = q.toString();
  return text ? `?${text}` : '';
}

/** Rows as aligned columns, or a line saying there are none; a full page says how to see more. */
function printTable(io, rows, columns, f, what) {
  if (rows.length === 0) return io.out(`no ${what}`);
  const cells = rows.map((r) => columns.map(([, get]) => String(get(r) ?? '-')));
  const widths = columns.map(([title], i) => Math.max(title.length, ...cells.map((c) => c[i].length)));
  const line = (values) =>
    values
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  io.out(line(columns.map(([title]) => title)));
  for (const c of cells) io.out(line(c));
  if (rows.length === Number(f.limit ?? 50)) io.err(`(the first ${rows.length}: --search narrows, --limit up to 100)`);
}

const LIST_FLAGS = { search: 'string', limit: 'string' };

export const commands = [
  {
    name: 'users create',
    usage: 'users create <name> --email EMAIL [--fullname NAME]',
    summary: 'Create a user',
    args: ['name'],
    flags: { email: 'string', fullname: 'string' },
    required: ['email'],
    request: ({ name }, f) => ({ path: '/admin/users', body: { name, email: f.email, fullname: f.fullname } }),
    print: (user, io) => io.out(`Created user ${user.name} (id ${user.id})`),
  },
  {
    name: 'tokens create',
    usage: 'tokens create <user> [--role read|write|fineGrained] [--name DISPLAY_NAME]',
    summary: 'Create an access token (role read unless told); the raw token alone goes to stdout',
    args: ['user'],
    flags: { role: 'string', name: 'string' },
    request: ({ user }, f) => ({
      path: `/admin/users/${enc(user)}/tokens`,
      body: { role: f.role ?? 'read', displayName: f.name },
    }),
    // Only the token on stdout, so `TOKEN=$(npm run -s hubctl -- tokens create alice)` works;
    // the summary and the warning go to stderr, where a person still sees them.
    print: (t, io, { user }) => {
      io.err(`Created ${t.role} token "${t.displayName}" for ${user} (id ${t.id}):`);
      io.out(t.token);
      io.err('This is the only time the token is shown: store it now.');
    },
  },
  {
    name: 'orgs create',
    usage:
      'orgs create <name> --plan free|team|enterprise|enterprise_plus --admin USER [--admin USER2 ...] [--fullname NAME]',
    summary: 'Create an organization with its first admins',
    args: ['name'],
    flags: { plan: 'string', admin: 'list', fullname: 'string' },
    required: ['plan', 'admin'],
    request: ({ name }, f) => ({
      path: '/admin/organizations',
      body: { name, fullname: f.fullname, plan: f.plan, admins: f.admin },
    }),
    print: (org, io, _a, f) =>
      io.out(`Created organization ${org.name} (plan ${org.plan}, id ${org.id}), admins: ${f.admin.join(', ')}`),
  },
  {
    name: 'orgs add-member',
    usage: 'orgs add-member <org> <user> --role ROLE',
    summary: "Add a member or change a member's role (admin, write, contributor, read, or a custom role)",
    args: ['org', 'user'],
    flags: { role: 'string' },
    required: ['role'],
    request: ({ org, user }, f) => ({ path: `/admin/organizations/${enc(org)}/members`, body: { user, role: f.role } }),
    print: (m, io, { org, user }) => io.out(`${user} is now ${m.role} in ${org}`),
  },
  {
    name: 'orgs remove-member',
    usage: 'orgs remove-member <org> <user>',
    summary: 'Remove a member (with its resource group entries and SCIM provisioning)',
    args: ['org', 'user'],
    flags: {},
    request: ({ org, user }) => ({ method: 'DELETE', path: `/admin/organizations/${enc(org)}/members/${enc(user)}` }),
    print: (_m, io, { org, user }) => io.out(`${user} is no longer a member of ${org}`),
  },
  {
    name: 'orgs change-role',
    usage: 'orgs change-role <org> <user> --role ROLE',
    summary: "Change an existing member's role",
    args: ['org', 'user'],
    flags: { role: 'string' },
    required: ['role'],
    request: ({ org, user }, f) => ({
      method: 'PATCH',
      path: `/admin/organizations/${enc(org)}/members/${enc(user)}`,
      body: { role: f.role },
    }),
    print: (m, io, { org, user }) => io.out(`${user} is now ${m.role} in ${org}`),
  },
  {
    name: 'orgs scim-link',
    usage: 'orgs scim-link <org> <user> --user-name NAME [--external-id ID]',
    summary:
      "Link an existing user to the organization's SCIM directory under the identity provider's userName (decision 0421)",
    args: ['org', 'user'],
    flags: { 'user-name': 'string', 'external-id': 'string' },
    required: ['user-name'],
    request: ({ org, user }, f) => ({
      method: 'POST',
      path: `/admin/organizations/${enc(org)}/scim/users`,
      body: { user, userName: f['user-name'], ...(f['external-id'] ? { externalId: f['external-id'] } : {}) },
    }),
    print: (u, io, { org, user }) => io.out(`${user} is provisioned in ${org} as ${u.userName} (SCIM id ${u.id})`),
  },
  {
    name: 'resource-groups remove-user',
    usage: 'resource-groups remove-user <org> <resourceGroupId> <user>',
    summary: 'Take a user out of a resource group',
    args: ['org', 'group', 'user'],
    flags: {},
    request: ({ org, group, user }) => ({
      method: 'DELETE',
      path: `/admin/organizations/${enc(org)}/resource-groups/${enc(group)}/users/${enc(user)}`,
    }),
    print: (g, io, { user }) => io.out(`${user} is no longer in resource group ${g.name}`),
  },
  {
    name: 'repos create',
    usage: 'repos create <owner/name> --type model|dataset|space|... [--private] [--storage BYTES]',
    summary: 'Add a repository to the catalogue (storage in bytes, default 0)',
    args: ['name'],
    flags: { type: 'string', private: 'boolean', storage: 'string' },
    required: ['type'],
    request: ({ name }, f) => {
      const storage = Number(f.storage ?? 0);
      if (!Number.isSafeInteger(storage) || storage < 0)
        throw new UsageError('--storage must be a whole number of bytes');
      return { path: '/admin/repos', body: { name, type: f.type, private: Boolean(f.private), storage } };
    },
    print: (_r, io, { name }, f) => io.out(`Added ${f.private ? 'private ' : ''}${f.type} repository ${name}`),
  },
  {
    name: 'users list',
    usage: 'users list [--search TEXT] [--limit N]',
    summary: 'List users by name (search in name, e-mail or full name)',
    args: [],
    flags: LIST_FLAGS,
    request: (_a, f) => ({ method: 'GET', path: `/admin/users${listQuery(f)}` }),
    print: (rows, io, _a, f) =>
      printTable(
        io,
        rows,
        [
          ['NAME', (u) => u.name],
          ['EMAIL', (u) => u.email],
          ['CREATED', (u) => u.createdAt],
          ['SCIM ORG', (u) => u.managedByOrganizationId],
        ],
        f,
        'users',
      ),
  },
  {
    name: 'tokens list',
    usage: 'tokens list <user> [--search TEXT] [--limit N]',
    summary: "List a user's tokens, newest first (never a token's value)",
    args: ['user'],
    flags: LIST_FLAGS,
    request: ({ user }, f) => ({ method: 'GET', path: `/admin/users/${enc(user)}/tokens${listQuery(f)}` }),
    print: (rows, io, _a, f) =>
      printTable(
        io,
        rows,
        [
          ['ID', (t) => t.id],
          ['NAME', (t) => t.displayName],
          ['ROLE', (t) => t.role],
          ['LAST4', (t) => t.last4],
          ['LAST USED', (t) => t.lastUsedAt],
          ['REVOKED', (t) => t.revokedAt],
        ],
        f,
        'tokens',
      ),
  },
  {
    name: 'orgs list',
    usage: 'orgs list [--search TEXT] [--limit N]',
    summary: 'List organizations by name, with their plan and member count',
    args: [],
    flags: LIST_FLAGS,
    request: (_a, f) => ({ method: 'GET', path: `/admin/organizations${listQuery(f)}` }),
    print: (rows, io, _a, f) =>
      printTable(
        io,
        rows,
        [
          ['NAME', (o) => o.name],
          ['PLAN', (o) => o.plan],
          ['MEMBERS', (o) => o.memberCount],
        ],
        f,
        'organizations',
      ),
  },
  {
    name: 'events publish',
    usage: "events publish <subject> (--payload '<json>' | --payload-file FILE)",
    summary: 'Publish a hub event (e.g. hub.events.repo.update) as another hub area would; FILE - reads stdin',
    args: ['subject'],
    flags: { payload: 'string', 'payload-file': 'string' },
    request: ({ subject }, f) => ({ path: '/admin/events', body: { subject, payload: readPayload(f) } }),
    print: (e, io) => io.out(`Published ${e.subject} (id ${e.id})`),
  },
  ...auditStreamCommands(readPayload, printTable),
];

export function findCommand(group, verb) {
  return commands.find((c) => c.name === `${group} ${verb}`);
}

const ENVIRONMENT = `Environment:
  HUB_URL          the hub's address (default http://localhost:8080)
  HUB_ADMIN_TOKEN  the admin token; when unset, read from \${HUB_DATA_DIR:-./data}/admin-token,
                   where the all-in-one hub keeps the one it generated
  HUB_TOKEN        for audit-streams: an organization admin's access token (they act as that admin)`;

const COMMON = `Options of every command:
  --json           print the hub's JSON answer instead of a summary
  --help, -h       show the command's usage`;

export function globalUsage() {
  const width = Math.max(...commands.map((c) => c.name.length));
  const list = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n');
  return `hubctl: administer a hub through its admin API.

Usage: npm run hubctl -- <command> [arguments] [options]

Commands:
${list}
  ${'backup <file>'.padEnd(width)}  Back up the hub's database (pg_dump, custom format) while it runs
  ${'restore <file>'.padEnd(width)}  Restore a backup into an empty database or a new data directory
  ${'help [command]'.padEnd(width)}  Show this text, or one command's usage

${COMMON}

${ENVIRONMENT}

Exit status: 0 done, 1 the hub refused or could not be reached, 2 bad command line.`;
}

export function commandUsage(cmd) {
  return `Usage: npm run hubctl -- ${cmd.usage}\n\n${cmd.summary}.\n\n${COMMON}\n\n${ENVIRONMENT}`;
}

const DATABASE = `Where the database is:
  DATABASE_URL     the hub's PostgreSQL (or --database-url URL); when unset, the all-in-one hub's
                   embedded PostgreSQL in \${HUB_DATA_DIR:-./data}/postgres, on its Unix socket
  HUB_PG_BIN       the folder of PostgreSQL's client tools (pg_dump, pg_restore, psql); default the
                   newest found on PATH and in the usual system folders. pg_dump must be at least
                   the server's version (the embedded PostgreSQL is 18)`;

export const BACKUP_USAGE = `Usage: npm run hubctl -- backup <file> [--database-url URL]

Writes every service's schema (and the all-in-one bus) to <file> in one consistent snapshot
(pg_dump --format=custom) while the hub runs. The secret key (HUB_SECRET_KEY, or the all-in-one
hub's \${HUB_DATA_DIR}/secret-key) is not in it: keep it apart.

${DATABASE}`;

export const RESTORE_USAGE = `Usage: npm run hubctl -- restore <file> [--database-url URL]

Restores a backup in one transaction into an empty database (DATABASE_URL), or, without one,
into a new all-in-one data directory (HUB_DATA_DIR, which must hold no database yet). Then start
the hub on it with the backed-up hub's secret key.

${DATABASE}`;
