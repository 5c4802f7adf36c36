import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as shared from '@hub/contracts';
import { BUS_PREFIX, type RpcDescriptor } from '@hub/contracts';
import * as credentials from '@hub/credentials-contract';
import * as jobs from '@hub/jobs-contract';
import * as notifications from '@hub/notifications-contract';
import * as organizations from '@hub/organizations-contract';
import * as webhooks from '@hub/webhooks-contract';
import { BUS_SERVICES, type BusService, BusAccessByService, rpcServiceOf } from './access';
import { NATS_AUTHORIZATION_FILES, natsPermissionsByUser, renderNatsAuthorization } from './nats-permissions';

const ROOT = resolve(__dirname, '../../..');
const contracts = { ...shared, ...credentials, ...jobs, ...notifications, ...organizations, ...webhooks };

/**
 * Where an app's code is: a feature's `service` tier (`libs/<feature>/service`) or a service lib
 * not yet moved (`libs/service-<name>`); the gateway's is its core and every feature's `http` tier.
 */
function codeOf(service: BusService): string[] {
  const libs = resolve(ROOT, 'libs');
  const dirs =
    service === 'gateway'
      ? [join(libs, 'service-gateway/src'), ...readdirSync(libs).map((f) => join(libs, f, 'http/src'))]
      : [join(libs, `service-${service}/src`), join(libs, service, 'service/src')];
  return dirs.filter((d) => existsSync(d));
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(path) ? [path] : [];
  });
}

/** `CredentialsRpc.VerifyToken`-style references in an app's code, as subjects. */
function rpcSubjectsNamedIn(service: BusService): Set<string> {
  const groups = Object.entries(contracts).filter(([name]) => /Rpc$/.test(name)) as [
    string,
    Record<string, RpcDescriptor<unknown, unknown>>,
  ][];
  const found = new Set<string>();
  for (const file of codeOf(service).flatMap(sources)) {
    const text = readFileSync(file, 'utf8');
    for (const [group, members] of groups) {
      for (const [key, d] of Object.entries(members))
        if (new RegExp(`\\b${group}\\.${key}\\b`).test(text)) found.add(d.subject);
    }
  }
  return found;
}

describe('bus access (decision 0013)', () => {
  it.each(BUS_SERVICES)('%s: the RPCs its code names are exactly what it handles and calls', (service) => {
    const access = BusAccessByService[service];
    const named = rpcSubjectsNamedIn(service);
    const handles = access.handles.map((r) => r.subject);
    const calls = access.calls.map((r) => r.subject);
    expect({ service, missing: [...named].filter((s) => !handles.includes(s) && !calls.includes(s)).sort() }).toEqual({
      service,
      missing: [],
    });
    expect({ service, unused: calls.filter((s) => !named.has(s)).sort() }).toEqual({ service, unused: [] });
  });

  it('lets only the credentials service answer credentials.*, and nobody but organizations publish audit or hub events besides their owners', () => {
    const users = natsPermissionsByUser();
    const subscribers = Object.entries(users)
      .filter(([, p]) => p.subscribe.allow.some((s) => s.startsWith('credentials.')))
      .map(([u]) => u);
    expect(subscribers.sort()).toEqual(['credentials', 'hub']);
    expect(users['gateway']?.publish.allow.filter((s) => /^hub\.(audit|events)\b/.test(s))).toEqual([]);
    expect(users['webhooks']?.publish.allow).not.toContain('credentials.token.create');
    for (const [user, p] of Object.entries(users)) {
      expect({
        user,
        wildcard: [...p.publish.allow, ...p.subscribe.allow].filter((s) => s === '>' || s === '_INBOX.>'),
      }).toEqual({ user, wildcard: [] });
    }
  });

  it("lets a service publish only into its own callers' reply inboxes for it, not into their other replies", () => {
    const inboxes = (user: string): string[] =>
      (natsPermissionsByUser()[user]?.publish.allow ?? []).filter((s) => s.startsWith('_INBOX'));
    // Its part of each caller's inbox, and (while 0.1.0's callers may run) their one-inbox replies,
    // a shape (two tokens after the prefix) today's clients never subscribe to.
    expect(inboxes('webhooks')).toEqual([
      '_INBOX_gateway.*.*',
      '_INBOX_gateway.webhooks.>',
      '_INBOX_hub.*.*',
      '_INBOX_hub.webhooks.>',
    ]);
    expect(inboxes('credentials')).toContain('_INBOX_gateway.credentials.>');
    expect(inboxes('credentials')).not.toContain('_INBOX_gateway.>');
    expect(inboxes('gateway')).toEqual([]);
    expect(natsPermissionsByUser('', ['hub-test'])['jobs']?.publish.allow).toContain('_INBOX_hub-test.>');
    expect(rpcServiceOf(credentials.CredentialsRpc.VerifyToken.subject)).toBe('credentials');
  });

  it("keeps other teams' subscribers away from RPCs and from the services' durables", () => {
    const p = natsPermissionsByUser()['subscriber'];
    expect(p?.publish.allow.filter((s) => !s.startsWith('$JS.') && s !== 'hub.deadletter.>')).toEqual([]);
    expect(p?.publish.deny).toContain('$JS.API.CONSUMER.MSG.NEXT.HUB_EVENTS.webhooks-repo');
    expect(p?.subscribe.allow).toEqual(['hub.>', '_INBOX_subscriber.>']);
  });

  it.each(NATS_AUTHORIZATION_FILES)('%s is what the descriptors give (run `npm run bus:generate`)', (file) => {
    expect(readFileSync(resolve(ROOT, file), 'utf8')).toEqual(renderNatsAuthorization());
  });

  it('renders the permissions for another prefix than its own', () => {
    expect(BUS_PREFIX).not.toEqual('');
    expect(renderNatsAuthorization()).not.toContain(BUS_PREFIX);
    expect(renderNatsAuthorization({ prefix: 'stage' })).toContain('"stage.credentials.token.verify"');
    expect(renderNatsAuthorization({ prefix: 'stage' })).toContain('"$JS.API.STREAM.INFO.STAGE_HUB_EVENTS"');
  });
});
