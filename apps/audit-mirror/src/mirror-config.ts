import { type StartFrom } from '@hub/bus-client';

/** What the mirror reads from its environment (see the README). */
export interface MirrorConfig {
  natsUrl: string;
  /** NATS_USER / NATS_PASSWORD: the hub's read-only `subscriber` user, or one the operator made. */
  natsUser?: string;
  natsPassword?: string;
  prefix: string;
  file: string;
  durable: string;
  from: StartFrom;
  /** Only audit events of this organization (by name), when set. */
  organization?: string;
}

/** Reads and checks the environment; every problem is listed at once. */
export function mirrorConfig(env: NodeJS.ProcessEnv): MirrorConfig {
  const problems: string[] = [];
  const natsUrl = env['NATS_URL'] ?? '';
  if (!/^(nats|tls|ws|wss):\/\/\S+$/.test(natsUrl.split(',')[0] ?? ''))
    problems.push("NATS_URL must be nats://host:port (the hub's NATS)");
  const prefix = env['HUB_BUS_PREFIX'] ?? '';
  if (!/^[a-zA-Z0-9_-]*$/.test(prefix)) problems.push('HUB_BUS_PREFIX may hold letters, digits, _ and - only');
  const durable = env['AUDIT_MIRROR_DURABLE'] ?? 'audit-mirror';
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(durable))
    problems.push('AUDIT_MIRROR_DURABLE must be 1..100 letters, digits, - or _');
  const rawFrom = env['AUDIT_MIRROR_FROM'] ?? 'all';
  let from: StartFrom = 'all';
  if (rawFrom === 'new' || rawFrom === 'all') from = rawFrom;
  else if (!Number.isNaN(Date.parse(rawFrom))) from = { since: new Date(rawFrom) };
  else problems.push('AUDIT_MIRROR_FROM must be all, new or an ISO 8601 time');
  const natsUser = env['NATS_USER'] || undefined;
  const natsPassword = env['NATS_PASSWORD'] || undefined;
  if (!natsUser !== !natsPassword)
    problems.push("NATS_USER and NATS_PASSWORD go together (the hub's read-only user is subscriber)");
  if (problems.length > 0) throw new Error(`audit-mirror: invalid configuration:\n- ${problems.join('\n- ')}`);
  return {
    natsUrl,
    natsUser,
    natsPassword,
    prefix,
    file: env['AUDIT_MIRROR_FILE'] ?? './audit-events.jsonl',
    durable,
    from,
    organization: env['AUDIT_MIRROR_ORGANIZATION'] || undefined,
  };
}
