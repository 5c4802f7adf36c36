import { headers as natsHeaders, type NatsConnection } from 'nats';
import { type DeadLetterMessage, subject } from '@hub/contracts';
import { type JobStatusEvent, JobsEvents } from '@hub/jobs-contract';
import { NotificationSourceEvents } from '@hub/notifications-contract';
import { WebhookEvents, type WebhookSuspendedEvent } from '@hub/webhooks-contract';
import {
  addMember,
  describeWithInfra,
  discussionEvent,
  DistributedHub,
  eventValidationScenarios,
  hexId,
  http,
  makeOrg,
  makeUser,
  NATS_TEST_ALL_RIGHTS_USER,
  queryDatabase,
  type SmtpCapture,
  startSmtpCapture,
  type TestDatabase,
  type TestUser,
} from '@hub/testing';

const ADMIN = 'notifications-distributed-admin-token';
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Inbox {
  count: { view: number; unread: number; all: number };
  notifications: { discussionEventId?: string }[];
}

/**
 * Issue 9 in the distributed mode, what the shared scenarios cannot reach: the notifications
 * service as its own process, fed over JetStream, mailing through a real SMTP server, and killed
 * with kill -9 in the middle of an ingest.
 */
describeWithInfra('distributed hub: notifications mails and kill -9', () => {
  let smtp: SmtpCapture;
  const distributed = new DistributedHub({
    busPrefix: 'e2e',
    adminToken: ADMIN,
    env: () => ({ SMTP_URL: smtp.url, HUB_RATE_LIMIT_PER_MINUTE: '1000000' }),
    services: ['credentials', 'organizations', 'notifications'],
    readyTimeoutMs: 150_000,
  });
  let db: TestDatabase;
  let nc: NatsConnection;
  let baseUrl = '';
  const deadLetters: DeadLetterMessage[] = [];

  const publish = async (subject: string, payload: unknown, msgId: string): Promise<void> => {
    const h = natsHeaders();
    h.set('Nats-Msg-Id', msgId);
    await nc.jetstream().publish(subject, JSON.stringify(payload), { msgID: msgId, headers: h });
  };

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    await distributed.start();
    [db, baseUrl] = [distributed.db, distributed.gateways[0]];
    nc = await distributed.nats.connect(NATS_TEST_ALL_RIGHTS_USER);
    nc.subscribe(subject('hub.deadletter.>'), {
      callback: (_e, m) => deadLetters.push(JSON.parse(m.string()) as DeadLetterMessage),
    });
  }, 360_000);

  afterAll(async () => {
    await nc?.close();
    await distributed.stop();
    await smtp?.close();
  });

  const hub = (): { baseUrl: string; adminToken: string } => ({ baseUrl, adminToken: ADMIN });
  const mailsTo = (u: TestUser): string[] =>
    smtp.mails.filter((m) => m.to.includes(`${u.name}@example.com`)).map((m) => m.subject);
  const waitForMails = async (done: () => boolean): Promise<void> => {
    const deadline = Date.now() + 20_000;
    while (!done() && Date.now() < deadline) await sleep(100);
  };

  it('mails a suspended webhook to its owner over SMTP once per event, and to the admins of an owning organization', async () => {
    const [owner, admin, member] = [await makeUser(hub()), await makeUser(hub()), await makeUser(hub())];
    const org = await makeOrg(hub(), 'team', [admin.name]);
    await addMember(hub(), org.name, member.name, 'read');
    const hook = hexId();
    const event: WebhookSuspendedEvent = {
      webhookId: hook,
      ownerId: owner.id,
      ownerName: owner.name,
      url: 'https://example.com/hook',
      reason: 'failing',
      suspendedAt: new Date().toISOString(),
    };
    const msgId = hexId();
    await publish(WebhookEvents.Suspended.subject, event, msgId);
    // The same message twice (one Nats-Msg-Id): one mail; the service keys its mails by that id too, for redeliveries.
    await publish(WebhookEvents.Suspended.subject, event, msgId);
    await publish(WebhookEvents.Suspended.subject, { ...event, ownerName: org.name, ownerType: 'org' }, hexId());
    await waitForMails(() => mailsTo(owner).length >= 1 && mailsTo(admin).length >= 1);
    await sleep(500);
    expect(mailsTo(owner)).toEqual([`Your webhook ${hook} was suspended`]);
    expect(mailsTo(admin)).toEqual([`Your webhook ${hook} was suspended`]);
    expect(mailsTo(member)).toEqual([]);
    // The body is quoted-printable: soft line breaks (`=` at the end of a line) join up.
    const body = (smtp.mails.find((m) => m.to.includes(`${owner.name}@example.com`))?.raw ?? '').replace(/=\r?\n/g, '');
    expect(body).toContain('(https://example.com/hook) kept failing');
    expect(body).toContain('Last error: failing');
  }, 60_000);

  it('mails the end of a job over SMTP only while job_status is on, once per event', async () => {
    const [on, off] = [await makeUser(hub()), await makeUser(hub())];
    expect(
      (
        await http(baseUrl, 'PATCH', '/api/settings/notifications', {
          token: off.token,
          body: { notifications: { job_status: false } },
        })
      ).status,
    ).toBe(200);
    const at = new Date().toISOString();
    const job = (user: TestUser, stage: JobStatusEvent['stage']): JobStatusEvent => ({
      jobId: hexId(),
      namespace: user.name,
      ownerId: user.id,
      createdByName: user.name,
      createdById: user.id,
      stage,
      failureCount: 0,
      at,
    });
    const completed = job(on, 'COMPLETED');
    const msgId = hexId();
    await publish(JobsEvents.JobStatus.subject, job(off, 'ERROR'), hexId());
    await publish(JobsEvents.JobStatus.subject, { ...completed, stage: 'RUNNING' }, hexId());
    await publish(JobsEvents.JobStatus.subject, completed, msgId);
    await publish(JobsEvents.JobStatus.subject, completed, msgId);
    await waitForMails(() => mailsTo(on).length >= 1);
    await sleep(500);
    expect(mailsTo(on)).toEqual([`Job ${completed.jobId} is COMPLETED`]);
    expect(mailsTo(off)).toEqual([]);
    const sent = await queryDatabase<{ n: string }>(
      db.url,
      'SELECT count(*) AS n FROM notifications.email_outbox WHERE recipient = $1',
      [`${on.name}@example.com`],
    );
    expect(Number(sent[0]?.n)).toBe(1);
  }, 60_000);

  it('kill -9 of the notifications process mid-ingest: every event accepted is a notification after the restart, none applied twice', async () => {
    const [alice, bob, carol] = [await makeUser(hub()), await makeUser(hub()), await makeUser(hub())];
    const repo = `${alice.name}/kill-nine`;
    expect(
      (
        await http(baseUrl, 'PATCH', '/api/settings/watch', {
          token: carol.token,
          body: { add: [{ id: repo, type: 'repo' }] },
        })
      ).status,
    ).toBe(200);
    const TOTAL = 400;
    const events = Array.from({ length: TOTAL }, (_, i) =>
      discussionEvent({ actor: alice, repo, num: i + 1, mentions: [bob] }),
    );
    const send = (from: number, to: number): Promise<void[]> =>
      Promise.all(
        events
          .slice(from, to)
          .map((e) => publish(NotificationSourceEvents.Discussion.of('create').subject, e, e['eventId'] as string)),
      );
    const allOf = async (u: TestUser): Promise<number> =>
      (await http<Inbox>(baseUrl, 'GET', '/api/notifications', { token: u.token })).body.count.all;

    await send(0, TOTAL / 2);
    // Wait until the ingest is under way, then kill it without a chance to ack or clean up.
    const started = Date.now();
    while ((await allOf(carol)) === 0 && Date.now() - started < 30_000) await sleep(20);
    const notifications = distributed.process('notifications');
    await notifications.stop('SIGKILL');
    const atKill = Number(
      (
        await queryDatabase<{ n: string }>(
          db.url,
          'SELECT count(*) AS n FROM notifications.applied_events WHERE id LIKE $1',
          ['discussion:%'],
        )
      )[0]?.n,
    );
    // Accepted by JetStream while the service is down.
    await send(TOTAL / 2, TOTAL);
    await notifications.restart();

    const deadline = Date.now() + 90_000;
    while (((await allOf(bob)) < TOTAL || (await allOf(carol)) < TOTAL) && Date.now() < deadline) await sleep(200);
    await sleep(1000);
    expect(atKill).toBeLessThan(TOTAL);
    for (const u of [bob, carol]) {
      const first = await http<Inbox>(baseUrl, 'GET', '/api/notifications', { token: u.token });
      expect(first.body.count).toEqual({ view: TOTAL, unread: TOTAL, all: TOTAL });
      // Every event moved this inbox's version exactly once: a replay would have moved it again.
      expect(first.headers.get('etag')).toMatch(new RegExp(`^W/"${TOTAL}-`));
      const rows = await queryDatabase<{ n: string; ids: string }>(
        db.url,
        'SELECT count(*) AS n, count(DISTINCT discussion_event_id) AS ids FROM notifications.notifications WHERE user_id = $1',
        [u.id],
      );
      expect(rows[0]).toEqual({ n: String(TOTAL), ids: String(TOTAL) });
    }
    const applied = await queryDatabase<{ n: string }>(
      db.url,
      'SELECT count(*) AS n FROM notifications.applied_events WHERE id LIKE $1',
      ['discussion:%'],
    );
    expect(Number(applied[0]?.n)).toBe(TOTAL);
  }, 240_000);

  // Last: the kill -9 test above counts every discussion event applied in this database.
  eventValidationScenarios(() => ({
    ...hub(),
    deadLetters: () => deadLetters,
    publishRaw: (event, payload, msgId) => publish(event.subject, payload, msgId),
  }));
});
