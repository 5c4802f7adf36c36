import { type DynamicModule, Global, Module } from '@nestjs/common';
import { type FastifyInstance } from 'fastify';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type JetStreamManager, type NatsConnection } from 'nats';
import { loadConfig } from '@hub/config';
import { type AuditEventMessage, Events, Streams } from '@hub/contracts';
import { type TokenRevokedEvent, CredentialsEvents } from '@hub/credentials-contract';
import { type MembershipChangedEvent, OrganizationsEvents } from '@hub/organizations-contract';
import {
  type BusMode,
  BUS_MODE,
  ensureStream,
  EventBus,
  InProcessBroker,
  InProcessLiveBus,
  InProcessRpcClient,
  LiveBus,
  NATS_CONNECTION,
  NatsEventBus,
  RpcClient,
  RpcServer,
} from '@hub/messaging';
import { metricsAccess, ObservabilityModule } from '@hub/observability';
import { CredentialsConfig, CredentialsModule } from '@hub/credentials-service';
import { CredentialsApiModule } from '@hub/credentials-http';
import { JobsApiModule } from '@hub/jobs-http';
import { NotificationsApiModule } from '@hub/notifications-http';
import { OrganizationsApiModule } from '@hub/organizations-http';
import { WebhooksApiModule } from '@hub/webhooks-http';
import { createGatewayApp, GatewayConfig, GatewayModule } from '@hub/service-gateway';
import { OrganizationsConfig, OrganizationsModule } from '@hub/organizations-service';
import {
  createTestDatabase,
  describeWithInfra,
  http,
  makeUser,
  queryDatabase,
  type TestDatabase,
  uniqueName,
  waitFor,
} from '@hub/testing';
import { PrivateNats } from './testing/private-nats';

const ADMIN = 'outbox-admin-token-for-tests';

/**
 * RPC in-process, events on JetStream: the request reaches the organizations service while
 * NATS is down, so the only thing NATS can break is the step after the commit.
 */
@Global()
@Module({})
class InProcessRpcJetStreamEvents {
  static forRoot(mode: Extract<BusMode, { kind: 'in-process' }>, bus: EventBus): DynamicModule {
    return {
      module: InProcessRpcJetStreamEvents,
      providers: [
        { provide: BUS_MODE, useValue: mode },
        { provide: NATS_CONNECTION, useValue: null },
        { provide: RpcClient, useValue: new InProcessRpcClient(mode.broker, 5000) },
        { provide: EventBus, useValue: bus },
        { provide: LiveBus, useValue: new InProcessLiveBus() },
        RpcServer,
      ],
      exports: [BUS_MODE, NATS_CONNECTION, RpcClient, EventBus, LiveBus, RpcServer],
    };
  }
}

@Module({})
class TestRoot {}

/** The client reconnects and JetStream recovers its streams from disk: wait for both. */
async function jetStreamBack(nc: NatsConnection): Promise<JetStreamManager> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const jsm = await nc.jetstreamManager({ timeout: 1000 });
      await jsm.streams.info(Streams.Audit.name);
      return jsm;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

describeWithInfra('transactional outbox: nothing lost between a commit and the bus', () => {
  let nats: PrivateNats;
  let nc: NatsConnection;
  let db: TestDatabase;
  let app: Awaited<ReturnType<typeof createGatewayApp>>;
  let baseUrl = '';

  beforeAll(async () => {
    nats = await PrivateNats.start();
    nc = await connect({ servers: nats.url, maxReconnectAttempts: -1, reconnectTimeWait: 100, name: 'outbox-test' });
    const jsm = await nc.jetstreamManager();
    for (const s of Object.values(Streams)) await ensureStream(jsm, s);
    db = await createTestDatabase();
    const env = {
      DATABASE_URL: db.url,
      HUB_MIGRATE_ON_START: 'true',
      HUB_DATA_DIR: mkdtempSync(join(tmpdir(), 'hub-outbox-')),
      LOG_LEVEL: 'fatal',
      HUB_ADMIN_TOKEN: ADMIN,
    };
    const gateway = loadConfig(GatewayConfig, env);
    const mode = { kind: 'in-process' as const, broker: new InProcessBroker() };
    const root: DynamicModule = {
      module: TestRoot,
      imports: [
        InProcessRpcJetStreamEvents.forRoot(mode, new NatsEventBus(nc, jsm)),
        CredentialsModule.forRoot(loadConfig(CredentialsConfig, env)),
        OrganizationsModule.forRoot(loadConfig(OrganizationsConfig, env)),
        GatewayModule.forRoot(gateway, [
          CredentialsApiModule,
          JobsApiModule,
          NotificationsApiModule,
          OrganizationsApiModule,
          WebhooksApiModule,
        ]),
        ObservabilityModule.forApp('hub', { inject: [], useFactory: () => [] }, metricsAccess(gateway, true)),
      ],
    };
    app = await createGatewayApp(root, gateway, 'hub');
    await app.init();
    await app.get(RpcServer).listen('hub');
    await app.listen(0, '127.0.0.1');
    await (app.getHttpAdapter().getInstance() as FastifyInstance).ready();
    baseUrl = await app.getUrl();
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await nc?.close();
    await nats?.down();
    await db?.drop();
  });

  it('answers 201 (and 202) while NATS is down; the audit, membership and revocation events arrive once, in order, when it is back', async () => {
    const owner = await makeUser({ baseUrl, adminToken: ADMIN });
    const leaker = await makeUser({ baseUrl, adminToken: ADMIN });
    await nats.down();

    const name = uniqueName('outbox');
    const started = Date.now();
    const res = await http<{ id: string; name: string }>(baseUrl, 'POST', '/admin/organizations', {
      token: ADMIN,
      body: { name, plan: 'team', admins: [owner.name] },
    });
    expect(res.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(2000);
    const org = res.body;
    // Committed with the organization, waiting for the bus.
    const pending = await queryDatabase<{ subject: string }>(
      db.url,
      'SELECT subject FROM organizations.outbox WHERE sent_at IS NULL ORDER BY seq',
    );
    expect(pending.map((p) => p.subject)).toEqual([
      Events.Audit.of('org.create').subject,
      OrganizationsEvents.MembershipChanged.subject,
      Events.Audit.of('org.add_user').subject,
    ]);
    // A retry of the same request is a clean 409: the first one did happen.
    const again = await http(baseUrl, 'POST', '/admin/organizations', {
      token: ADMIN,
      body: { name, plan: 'team', admins: [owner.name] },
    });
    expect(again.status).toBe(409);

    // The credentials service too: a leaked-token revocation commits and answers.
    const revoke = await http(baseUrl, 'POST', '/api/credentials/revoke', { body: { credentials: [leaker.token] } });
    expect(revoke.status).toBe(202);
    expect((await http(baseUrl, 'GET', '/api/whoami-v2', { token: leaker.token })).status).toBe(401);

    await new Promise((r) => setTimeout(r, 1500)); // the relay tries, fails and backs off meanwhile
    await nats.up();
    const jsm = await jetStreamBack(nc);

    const reader = new NatsEventBus(nc, jsm);
    const audits: AuditEventMessage[] = [];
    const changes: MembershipChangedEvent[] = [];
    const revoked: TokenRevokedEvent[] = [];
    await reader.consume({
      stream: Streams.Credentials.name,
      durable: 'outbox-test-tokens',
      source: CredentialsEvents.TokenRevoked,
      handler: async (p) => void revoked.push(p),
    });
    await reader.consume({
      stream: Streams.Audit.name,
      durable: 'outbox-test-audit',
      source: Events.Audit,
      handler: async (p) => void audits.push(p),
    });
    await reader.consume({
      stream: Streams.Organizations.name,
      durable: 'outbox-test-members',
      source: OrganizationsEvents.MembershipChanged,
      handler: async (p) => void changes.push(p),
    });
    const ofOrg = (): AuditEventMessage[] => audits.filter((a) => a.organizationId === org.id);
    const backAt = Date.now();
    await waitFor(
      'events after NATS came back',
      () =>
        ofOrg().length >= 2 && changes.some((c) => c.organizationId === org.id) && revoked.length > 0
          ? true
          : undefined,
      30_000,
    );
    process.stdout.write(`outbox: events arrived ${Date.now() - backAt} ms after JetStream answered again\n`);
    await new Promise((r) => setTimeout(r, 1000)); // a duplicate would have arrived by now
    await reader.close();

    expect(ofOrg().map((a) => a.type)).toEqual(['org.create', 'org.add_user']);
    expect(ofOrg()[1]?.data).toEqual({ user: owner.name, role: 'admin' });
    expect(changes.filter((c) => c.organizationId === org.id)).toEqual([
      { organizationId: org.id, userIds: [owner.id] },
    ]);
    expect(revoked).toEqual([expect.objectContaining({ tokenIds: [leaker.tokenId] })]);
    const left = await queryDatabase<{ n: string }>(
      db.url,
      'SELECT count(*) AS n FROM organizations.outbox WHERE sent_at IS NULL',
    );
    expect(left[0]?.n).toBe('0');
  }, 90_000);
});
