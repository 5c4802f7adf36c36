import { type BusAccess, BusAccessByService, busAccessOf, BUS_SERVICES, type BusService } from './access';
import { Events, Streams, streamNameIn, subjectFilter, subjectIn, unprefixedStream, unprefixedSubject } from '@hub/contracts';

/** One NATS user's permissions, as nats-server's `authorization.users[].permissions` takes them. */
export interface NatsPermissions {
  publish: { allow: string[]; deny?: string[] };
  subscribe: { allow: string[]; deny?: string[] };
}

/** The read-only user of other teams' subscribers (libs/bus-client, apps/audit-mirror). */
export const BUS_SUBSCRIBER_USER = 'subscriber';

/**
 * Where a user's replies come to: `_INBOX_<user>.…`, set as the client's `inboxPrefix`, so one
 * user cannot subscribe to another's replies (a reply may carry a new token, a user's data).
 */
export function natsInboxPrefix(user: string): string {
  return `_INBOX_${user}`;
}

/**
 * Where `caller`'s RPC client takes the replies of `service`'s RPCs: a part of the caller's inbox
 * per service answering, so a service may publish replies to its own callers' requests only.
 */
export function natsReplyInbox(caller: string, service: string): string {
  return `${natsInboxPrefix(caller)}.${service}`;
}

/** The variable nats-server reads a user's password from (the config holds only `$NAME`). */
export function natsPasswordVariable(user: string): string {
  return `NATS_PASSWORD_${user.toUpperCase().replace(/-/g, '_')}`;
}

const sorted = (xs: Iterable<string>): string[] => [...new Set(xs)].sort();

/** Names of one prefix: every descriptor subject and stream name re-prefixed. */
class Names {
  constructor(private readonly prefix: string) {}
  subject(s: string): string {
    return subjectIn(this.prefix, unprefixedSubject(s));
  }
  stream(s: string): string {
    return streamNameIn(this.prefix, unprefixedStream(s));
  }
  /** The stream whose subjects hold this subject or filter. */
  streamOf(filter: string): string | undefined {
    const bare = unprefixedSubject(filter);
    const found = Object.values(Streams).find((s) => s.subjects.some((p) => bare.startsWith(unprefixedSubject(p).slice(0, -1))));
    return found && this.stream(found.name);
  }
}

/** The consumer API subjects of one durable (create in both forms nats.js uses, info, pull, ack). */
function consumerSubjects(stream: string, durable: string): string[] {
  return [
    `$JS.API.CONSUMER.CREATE.${stream}.${durable}`, `$JS.API.CONSUMER.CREATE.${stream}.${durable}.>`,
    `$JS.API.CONSUMER.DURABLE.CREATE.${stream}.${durable}`, `$JS.API.CONSUMER.INFO.${stream}.${durable}`,
    `$JS.API.CONSUMER.MSG.NEXT.${stream}.${durable}`, `$JS.ACK.${stream}.${durable}.>`,
  ];
}

/** The streams an app creates if missing (and updates, for those it publishes into). */
export function streamsOf(access: BusAccess, prefix: string): { owned: string[]; read: string[] } {
  const n = new Names(prefix);
  const deadLetter = n.stream(Streams.DeadLetter.name);
  const owned = new Set([deadLetter, ...access.publishes.map((e) => n.streamOf(subjectFilter(e))).filter((s): s is string => !!s)]);
  const read = new Set(access.consumes.map((c) => n.stream(c.stream.name)).filter((s) => !owned.has(s)));
  return { owned: sorted(owned), read: sorted(read) };
}

/** The users (of `users`) that call any RPC of this access: where its replies go. */
export function callersOf(access: BusAccess, users: Record<string, BusAccess>): string[] {
  const handled = new Set(access.handles.map((r) => r.subject));
  return sorted(Object.entries(users).filter(([, a]) => a.calls.some((r) => handled.has(r.subject))).map(([u]) => u));
}

/**
 * A service user's permissions: its RPCs, its events, its streams and durables, its own inbox,
 * and `replies`: the subjects of the reply inboxes of the requests it answers (natsReplyInbox). Replies are
 * allowed by subject, not by nats-server's `allow_responses`, which costs the server about
 * 250 us on every message such a user publishes, JetStream acks included (decision 0703).
 */
export function servicePermissions(user: string, access: BusAccess, prefix: string, replies: readonly string[] = []): NatsPermissions {
  const n = new Names(prefix);
  const streams = streamsOf(access, prefix);
  const publish = [
    ...access.calls.map((r) => n.subject(r.subject)),
    ...access.publishes.map((e) => n.subject(subjectFilter(e))),
    // Anything it cannot take goes to hub.deadletter.<subject> (EventBus.deadLetter).
    n.subject(subjectFilter(Events.DeadLetter)),
    '$JS.API.INFO',
    ...[...streams.owned, ...streams.read].flatMap((s) => [`$JS.API.STREAM.INFO.${s}`, `$JS.API.STREAM.CREATE.${s}`]),
    ...streams.owned.map((s) => `$JS.API.STREAM.UPDATE.${s}`),
    ...access.consumes.flatMap((c) => consumerSubjects(n.stream(c.stream.name), c.durable)),
    ...replies,
  ];
  const subscribe = [
    ...access.handles.map((r) => n.subject(r.subject)),
    ...access.listens.map((e) => n.subject(subjectFilter(e))),
    `${natsInboxPrefix(user)}.>`,
  ];
  return { publish: { allow: sorted(publish) }, subscribe: { allow: sorted(subscribe) } };
}

/**
 * Other teams' subscribers: durable consumers of the hub's streams and plain subscriptions to
 * `hub.>`, dead letters of their own; no RPC, no event publishing, and none of the services'
 * own durables (pulling or acking those would take the services' messages).
 */
export function subscriberPermissions(prefix: string): NatsPermissions {
  const n = new Names(prefix);
  const streams = sorted(Object.values(Streams).map((s) => n.stream(s.name)));
  const allow = [
    '$JS.API.INFO',
    ...streams.flatMap((s) => [
      `$JS.API.STREAM.INFO.${s}`, `$JS.API.CONSUMER.CREATE.${s}.>`, `$JS.API.CONSUMER.DURABLE.CREATE.${s}.>`,
      `$JS.API.CONSUMER.INFO.${s}.>`, `$JS.API.CONSUMER.MSG.NEXT.${s}.>`, `$JS.API.CONSUMER.DELETE.${s}.>`, `$JS.ACK.${s}.>`,
    ]),
    n.subject(subjectFilter(Events.DeadLetter)),
  ];
  const deny = Object.values(BusAccessByService).flatMap((a) => a.consumes).flatMap((c) => {
    const s = n.stream(c.stream.name);
    return [...consumerSubjects(s, c.durable), `$JS.API.CONSUMER.DELETE.${s}.${c.durable}`];
  });
  return {
    publish: { allow: sorted(allow), deny: sorted(deny) },
    subscribe: { allow: [subjectIn(prefix, 'hub.>'), `${natsInboxPrefix(BUS_SUBSCRIBER_USER)}.>`] },
  };
}

/**
 * Every user of the bus: each service, the all-in-one hub, the subscribers. `extraCallers`: users
 * outside the map that call every RPC (the tests' all-rights user, any request API): every
 * responder may publish into their whole inbox.
 */
export function natsPermissionsByUser(prefix = '', extraCallers: readonly string[] = []): Record<string, NatsPermissions> {
  const access: Record<string, BusAccess> = { ...BusAccessByService, hub: busAccessOf('hub') as BusAccess };
  // Each service's callers, then each user's reply inboxes: one per (caller, service it answers for).
  const callers = new Map(BUS_SERVICES.map((s) => [s, callersOf(BusAccessByService[s], access)]));
  const answers = (a: BusAccess): BusService[] => {
    const handled = new Set(a.handles.map((r) => r.subject));
    return BUS_SERVICES.filter((s) => BusAccessByService[s].handles.some((r) => handled.has(r.subject)));
  };
  const users: Record<string, NatsPermissions> = {};
  for (const [user, a] of Object.entries(access)) {
    const callersOfUser = sorted(answers(a).flatMap((s) => callers.get(s) ?? []));
    const replies = [
      ...answers(a).flatMap((s) => (callers.get(s) ?? []).map((c) => `${natsReplyInbox(c, s)}.>`)),
      // 0.1.0's callers took every reply on one inbox (`_INBOX_<caller>.<nuid>.<token>`): allowed
      // while they may run beside this release (expand; dropped in the next, decision 0703).
      // Today's clients never subscribe to a subject of that shape.
      ...callersOfUser.map((c) => `${natsInboxPrefix(c)}.*.*`),
    ];
    if (a.handles.length > 0) replies.push(...extraCallers.map((c) => `${natsInboxPrefix(c)}.>`));
    users[user] = servicePermissions(user, a, prefix, replies);
  }
  users[BUS_SUBSCRIBER_USER] = subscriberPermissions(prefix);
  return users;
}

/** Where the committed copies live (the contracts tests fail while one is stale). */
export const NATS_AUTHORIZATION_FILES = ['docker/nats/authorization.conf', 'k8s/base/nats/authorization.conf'] as const;

export interface RenderOptions {
  /** Subject prefix (HUB_BUS_PREFIX) the permissions are for. */
  prefix?: string;
  /** Adds a user of that name with every right: tests only, never in a committed file. */
  allRightsUser?: string;
}

const list = (xs: readonly string[], indent: string): string =>
  `[\n${xs.map((x) => `${indent}  ${JSON.stringify(x)}`).join(',\n')}\n${indent}]`;

function renderPermissions(p: NatsPermissions, indent: string): string {
  const part = (name: string, rule: { allow: string[]; deny?: string[] }): string => [
    `${indent}${name}: {`,
    `${indent}  allow: ${list(rule.allow, `${indent}  `)}`,
    ...(rule.deny ? [`${indent}  deny: ${list(rule.deny, `${indent}  `)}`] : []),
    `${indent}}`,
  ].join('\n');
  return [part('publish', p.publish), part('subscribe', p.subscribe)].join('\n');
}

/**
 * The nats-server `authorization` block: one user per app, passwords read by the server from
 * `NATS_PASSWORD_<USER>` in its environment. Written by `npm run bus:generate` into docker/ and
 * k8s/; the tests start their servers with it (decision 0013).
 */
export function renderNatsAuthorization(options: RenderOptions = {}): string {
  const users = natsPermissionsByUser(options.prefix ?? '', options.allRightsUser ? [options.allRightsUser] : []);
  const entries = Object.entries(users).map(([user, p]) => [
    '    {',
    `      user: ${JSON.stringify(user)}`,
    `      password: $${natsPasswordVariable(user)}`,
    '      permissions: {',
    renderPermissions(p, '        '),
    '      }',
    '    }',
  ].join('\n'));
  if (options.allRightsUser) {
    entries.push(`    {\n      user: ${JSON.stringify(options.allRightsUser)}\n      password: $${natsPasswordVariable(options.allRightsUser)}\n    }`);
  }
  return [
    '# Generated by `npm run bus:generate` from libs/bus-access/src/access.ts: do not edit.',
    `# One NATS user per app (decision 0013), for subjects prefixed with "${options.prefix ?? ''}".`,
    '# Each password comes from the server\'s environment: NATS_PASSWORD_<USER>.',
    'authorization {',
    '  users: [',
    entries.join('\n'),
    '  ]',
    '}',
    '',
  ].join('\n');
}
