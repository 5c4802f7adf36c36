import { writeFileSync } from 'node:fs';
import {
  arrived,
  AUDIT_STREAM_TEST_ENV,
  auditStreamDeliveryScenarios,
  auditStreamsScenarios,
  createStream,
  describeWithInfra,
  DistributedHub,
  eventually,
  exportedIds,
  makeAuditEvents,
  makeOrg,
  makeUser,
  queryDatabase,
  SECRET,
  type SmtpCapture,
  startDatadogReceiver,
  startHttpsReceiver,
  startSmtpCapture,
  streamOrder,
  type StreamReceiver,
} from '@hub/testing';

const ADMIN = 'audit-streams-distributed-admin-token';

/**
 * Audit log streams in the distributed mode (issue 39): the organizations service in two replicas
 * (a stream is served by one at a time, under a lease), the notifications service mailing admins
 * when a stream fails, over an authenticated NATS.
 */
describeWithInfra('distributed hub: audit log streams', () => {
  let smtp: SmtpCapture;
  let datadog: StreamReceiver;
  const hub = new DistributedHub({
    busPrefix: 'e2e-audit-streams',
    adminToken: ADMIN,
    env: () => ({
      SMTP_URL: smtp.url,
      ...AUDIT_STREAM_TEST_ENV,
      HUB_AUDIT_STREAM_DATADOG_URL: datadog.url,
      HUB_SECRET_KEY: 'audit-streams-distributed-secret-key',
    }),
    services: ['credentials', 'organizations', 'notifications'],
    replicas: { organizations: 2 },
    serviceEnv: { organizations: { HUB_AUDIT_STREAM_BATCH_MAX: '5' } },
  });
  let baseUrl = '';

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    datadog = await startDatadogReceiver('dd-api-key-for-tests');
    await hub.start();
    baseUrl = hub.gateways[0];
  }, 360_000);

  afterAll(async () => {
    // What the services said, for a failure's post-mortem.
    for (const app of ['organizations', 'notifications'])
      hub
        .processes(app)
        .forEach((p, i) => writeFileSync(`/tmp/audit-streams-distributed-${app}-${i}.log`, p.proc.output()));
    await hub.stop();
    await smtp?.close();
    await datadog?.close();
  });

  const target = () => ({ baseUrl, adminToken: ADMIN, databaseUrl: hub.db.url, datadog, smtp });
  auditStreamsScenarios(target);
  auditStreamDeliveryScenarios(target);

  it('kill -9 of the replica serving a stream mid-batch loses nothing: the other takes the lease over, every event arrives, in order', async () => {
    const t = target();
    const receiver = await startHttpsReceiver(SECRET);
    try {
      const admin = await makeUser(t);
      const org = await makeOrg(t, 'enterprise', [admin.name], 'kill');
      const before = await exportedIds(t, admin.token, org.name);
      // A slow destination: each batch (at most 5 events here) stays in flight 2 s.
      receiver.delayMs = 2000;
      const s = await createStream(t, admin.token, org.name, {
        type: 'https',
        url: `${receiver.url}/siem`,
        secret: SECRET,
      });
      await makeAuditEvents(t, org.name, 10);
      // Every event stored first (no audit event waits on the bus for the dead replica's ack: with
      // this file's 21.6 s retention, one redelivered after the 30 s ack wait would be dropped).
      const all = await eventually(
        () => exportedIds(t, admin.token, org.name),
        (ids) => ids.length >= before.length + 20,
      );
      const sent = await streamOrder(t, all.slice(before.length));
      await eventually(
        async () => receiver.requests,
        (n) => n > 0,
        30_000,
      );
      // The first batch arrived and is not answered yet: the replica holding the lease dies.
      const [row] = await queryDatabase<{ lease_owner: string }>(
        t.databaseUrl,
        'SELECT lease_owner FROM organizations.audit_streams WHERE id = $1',
        [s.id],
      );
      const holder = hub
        .processes('organizations')
        .find((p) => row?.lease_owner.includes(`-${p.proc.child.pid ?? -1}-`));
      expect(holder).toBeDefined();
      await holder?.stop('SIGKILL');
      expect(arrived(receiver, sent).length).toBeLessThan(sent.length);
      receiver.delayMs = 0;
      // Every event arrives (at least once: the batch the dead replica had sent comes again), and
      // the first arrivals keep the log's order.
      const got = await eventually(
        async () => arrived(receiver, sent),
        (ids) => ids.length === sent.length,
        90_000,
      );
      expect(got).toEqual(sent);
      expect(receiver.problems).toEqual([]);
      await holder?.restart();
    } finally {
      await receiver.close();
    }
  }, 300_000);
});
