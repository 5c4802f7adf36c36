import { AckPolicy, type NatsConnection } from 'nats';
import { natsInboxPrefix, natsReplyInbox, rpcServiceOf } from '@hub/bus-access';
import { Events, type RequestContext, Streams, subject } from '@hub/contracts';
import { JobLogLive } from '@hub/jobs-contract';
import { CredentialsRpc } from '@hub/credentials-contract';
import { NatsRpcClient } from '@hub/messaging';
import {
  type AuthenticatedNats,
  describeWithInfra,
  DistributedHub,
  freePort,
  http,
  makeUser,
  NATS_TEST_ALL_RIGHTS_USER,
  queryDatabase,
  runApp,
  type TestDatabase,
  waitUntil,
} from '@hub/testing';

const ADMIN = 'bus-auth-admin-token-for-tests';
const CTX: RequestContext = { requestId: 'bus-auth-test', admin: true };

/** Waits for a subscription's permission error (nats.js ends the iterator with it). */
async function subscriptionRefused(nc: NatsConnection, filter: string): Promise<string> {
  const sub = nc.subscribe(filter);
  try {
    for await (const m of sub) return `received ${m.subject}`;
    return 'closed without an error';
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
}

/** A call as `user` through the real RPC client: its answer, or the error it ends with. */
async function callAs(nats: AuthenticatedNats, user: string, targetUser: string): Promise<string> {
  const nc = await nats.connect(user);
  try {
    const client = new NatsRpcClient(nc, 1500, natsInboxPrefix(user), rpcServiceOf);
    const created = await client.call(CredentialsRpc.CreateToken, { user: targetUser, role: 'write' }, CTX);
    return `created ${created.token.slice(0, 3)}`;
  } catch (err) {
    return `refused: ${(err as Error).message}`;
  } finally {
    await nc.close();
  }
}

/**
 * Issue 22 item 2: the bus has authentication and per-service authorization (decision 0013). The
 * services run on a nats-server with the generated users; a client without credentials, or with
 * another service's, cannot mint tokens or read the credentials service's traffic.
 */
describeWithInfra('bus authorization (issue 22): NATS users and permissions per service', () => {
  const hub = new DistributedHub({
    busPrefix: 'e2e-auth',
    adminToken: ADMIN,
    services: ['credentials', 'organizations'],
  });
  let nats: AuthenticatedNats;
  let db: TestDatabase;
  let gateway = '';

  beforeAll(async () => {
    await hub.start();
    [nats, db, gateway] = [hub.nats, hub.db, hub.gateways[0]];
  }, 360_000);

  afterAll(() => hub.stop());

  it('serves the hub through the authenticated bus (whoami, admin-published hub events)', async () => {
    const user = await makeUser({ baseUrl: gateway, adminToken: ADMIN });
    expect((await http(gateway, 'GET', '/api/whoami-v2', { token: user.token })).status).toBe(200);
    const payload = { event: { action: 'update', scope: 'repo' }, repo: { type: 'model', name: 'acme/bert' } };
    expect(
      (
        await http(gateway, 'POST', '/admin/events', {
          token: ADMIN,
          body: { subject: 'hub.events.repo.update', payload },
        })
      ).status,
    ).toBe(202);
  });

  it('lets no client without credentials in', async () => {
    await expect(nats.connect(null)).rejects.toMatchObject({ code: 'AUTHORIZATION_VIOLATION' });
    await expect(nats.connect('webhooks', { pass: 'wrong' })).rejects.toMatchObject({
      code: 'AUTHORIZATION_VIOLATION',
    });
  });

  it('refuses credentials.token.create to the webhooks service and to subscribers; a token is made only when allowed', async () => {
    const victim = await makeUser({ baseUrl: gateway, adminToken: ADMIN });
    const tokens = async (): Promise<number> =>
      Number(
        (
          await queryDatabase<{ n: string }>(
            db.url,
            'SELECT count(*) AS n FROM credentials.access_tokens WHERE user_id = $1',
            [victim.id],
          )
        )[0]?.n,
      );
    expect(await callAs(nats, 'webhooks', victim.name)).toMatch(/^refused: /);
    expect(await callAs(nats, 'subscriber', victim.name)).toMatch(/^refused: /);
    expect(await tokens()).toBe(1);
    // The same call as the gateway goes through: the refusals above are the permissions' doing.
    expect(await callAs(nats, 'gateway', victim.name)).toBe('created hf_');
  });

  it("refuses a subscription to credentials.> (and to the gateway's inbox) to the webhooks service and to subscribers", async () => {
    for (const user of ['webhooks', 'subscriber']) {
      const nc = await nats.connect(user);
      expect({ user, credentials: await subscriptionRefused(nc, subject('credentials.>')) }).toEqual({
        user,
        credentials: 'PERMISSIONS_VIOLATION',
      });
      expect({ user, inbox: await subscriptionRefused(nc, `${natsInboxPrefix('gateway')}.>`) }).toEqual({
        user,
        inbox: 'PERMISSIONS_VIOLATION',
      });
      await nc.close();
    }
  });

  it("keeps a job's live log lines between the jobs service and the gateways: other services and subscribers may not listen, the gateway may not publish", async () => {
    const lines = JobLogLive.of('6c0000000000000000000003').subject;
    for (const user of ['webhooks', 'subscriber']) {
      const nc = await nats.connect(user);
      expect({ user, live: await subscriptionRefused(nc, lines) }).toEqual({ user, live: 'PERMISSIONS_VIOLATION' });
      await nc.close();
    }
    // What the jobs service publishes reaches the gateway's user; what the gateway's user publishes does not.
    const [jobs, gw] = [await nats.connect('jobs'), await nats.connect('gateway')];
    const heard: string[] = [];
    const sub = gw.subscribe(lines, { callback: (_e, m) => heard.push(m.string()) });
    await gw.flush();
    gw.publish(lines, 'from the gateway');
    jobs.publish(lines, 'from jobs');
    await jobs.flush();
    await waitUntil(() => heard.includes('from jobs'), 5000, "the jobs service's line");
    await gw.flush();
    expect(heard).toEqual(['from jobs']);
    sub.unsubscribe();
    await Promise.all([jobs.close(), gw.close()]);
  });

  it('lets the gateway publish neither audit nor repo events', async () => {
    const spy = await nats.connect(NATS_TEST_ALL_RIGHTS_USER);
    const arrived: string[] = [];
    for (const filter of [Events.Audit.pattern, subject('hub.events.>')])
      spy.subscribe(filter, { callback: (_e, m) => arrived.push(m.subject) });
    await spy.flush();
    const nc = await nats.connect('gateway');
    const errors: string[] = [];
    void (async () => {
      for await (const s of nc.status()) if (s.type === 'error') errors.push(String(s.data));
    })();
    nc.publish(Events.Audit.of('org.create').subject, '{}');
    nc.publish(subject('hub.events.repo.update'), '{}');
    await nc.flush();
    const deadline = Date.now() + 5000;
    while (errors.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await nc.close();
    await spy.flush();
    await spy.close();
    expect(errors).toEqual(['PERMISSIONS_VIOLATION', 'PERMISSIONS_VIOLATION']);
    expect(arrived).toEqual([]);
  });

  it("lets a service reply into its callers' inbox part for it only: no forged answer to another service's request", async () => {
    const spy = await nats.connect(NATS_TEST_ALL_RIGHTS_USER);
    const arrived: string[] = [];
    spy.subscribe(`${natsInboxPrefix('gateway')}.>`, { callback: (_e, m) => arrived.push(m.subject) });
    await spy.flush();
    const nc = await nats.connect('webhooks');
    const errors: string[] = [];
    void (async () => {
      for await (const s of nc.status()) if (s.type === 'error') errors.push(String(s.data));
    })();
    nc.publish(`${natsReplyInbox('gateway', 'credentials')}.forged.1`, '{"data":{"user":"admin"}}');
    nc.publish(`${natsReplyInbox('gateway', 'webhooks')}.own.1`, '{}');
    await nc.flush();
    const deadline = Date.now() + 5000;
    while ((errors.length < 1 || arrived.length < 1) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    await nc.close();
    await spy.close();
    expect(errors).toEqual(['PERMISSIONS_VIOLATION']);
    expect(arrived).toEqual([`${natsReplyInbox('gateway', 'webhooks')}.own.1`]);
  });

  it("lets the read-only subscriber user run a durable consumer of the audit events, and not pull the services' own", async () => {
    const owner = await makeUser({ baseUrl: gateway, adminToken: ADMIN });
    const org = await http<{ name: string }>(gateway, 'POST', '/admin/organizations', {
      token: ADMIN,
      body: { name: `bus-auth-${owner.name}`, plan: 'team', admins: [owner.name] },
    });
    expect(org.status).toBe(201);
    const nc = await nats.connect('subscriber');
    const jsm = await nc.jetstreamManager();
    await jsm.consumers.add(Streams.Audit.name, {
      durable_name: 'mirror-test',
      ack_policy: AckPolicy.Explicit,
      filter_subject: Events.Audit.pattern,
    });
    const consumer = await nc.jetstream().consumers.get(Streams.Audit.name, 'mirror-test');
    const first = await consumer.next({ expires: 5000 });
    expect(first?.subject).toMatch(/hub\.audit\./);
    first?.ack();
    const theirs = await nc
      .jetstream()
      .consumers.get(Streams.Audit.name, 'organizations-audit-ingest')
      .then(
        () => 'allowed',
        (e: { code?: string }) => e.code ?? String(e),
      );
    await nc.close();
    expect(theirs).not.toBe('allowed');
  });

  it('carries no raw token on the bus while the gateway verifies one', async () => {
    const user = await makeUser({ baseUrl: gateway, adminToken: ADMIN });
    const spy = await nats.connect(NATS_TEST_ALL_RIGHTS_USER);
    const seen: string[] = [];
    spy.subscribe('>', { callback: (_e, m) => seen.push(`${m.subject} ${m.string()}`) });
    await spy.flush();
    expect((await http(gateway, 'GET', '/api/whoami-v2', { token: user.token })).status).toBe(200);
    expect(
      (await http(gateway, 'GET', '/api/whoami-v2', { token: 'hf_notAValidTokenAtAllxxxxxxxxxxxxxxxx' })).status,
    ).toBe(401);
    await spy.flush();
    await spy.close();
    expect(seen.some((s) => s.includes(subject('credentials.token.verify')))).toBe(true);
    expect(seen.filter((s) => s.includes('hf_'))).toEqual([]);
  });

  it('refuses to start a service in production without NATS credentials, naming the variables', async () => {
    const r = await runApp(
      'webhooks',
      {
        DATABASE_URL: db.url,
        NATS_URL: nats.url,
        NODE_ENV: 'production',
        HUB_SECRET_KEY: 'a'.repeat(44),
        PORT: String(await freePort()),
      },
      [],
    );
    expect(r.code).not.toBe(0);
    expect(r.output).toContain('NATS_USER and NATS_PASSWORD are required with NATS_URL in production');
  });
});
