import { type DeadLetterMessage, Events } from '@hub/contracts';
import { type JobStatusEvent, JobsEvents } from '@hub/jobs-contract';
import { WebhookEvents, type WebhookSuspendedEvent } from '@hub/webhooks-contract';
import { EventBus } from '@hub/messaging';
import {
  describeWithInfra,
  eventValidationScenarios,
  http,
  makeOrg,
  makeUser,
  notificationsScenarios,
  type SmtpCapture,
  startSmtpCapture,
} from '@hub/testing';
import { startTestHub, type TestHub } from './testing/test-hub';

const ADMIN = 'notifications-admin-token-for-tests';
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Issue 9 in the all-in-one mode: the in-process durable bus feeds the inbox and the mailer. */
describeWithInfra('all-in-one hub: notifications', () => {
  let t: TestHub;
  let smtp: SmtpCapture;
  let baseUrl = '';
  const deadLetters: DeadLetterMessage[] = [];

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    t = await startTestHub({ HUB_ADMIN_TOKEN: ADMIN, SMTP_URL: smtp.url }, { listen: true });
    baseUrl = t.baseUrl;
    t.hub.app.get(EventBus).listen(Events.DeadLetter, (letter) => deadLetters.push(letter));
  });

  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  notificationsScenarios(() => ({ baseUrl, adminToken: ADMIN }));
  eventValidationScenarios(() => ({
    baseUrl,
    adminToken: ADMIN,
    deadLetters: () => deadLetters,
    publishRaw: (event, payload, msgId) => t.hub.app.get(EventBus).publish(event, payload, { msgId }),
  }));

  describe("e-mails for other services' facts", () => {
    const mailsTo = (name: string): string[] =>
      smtp.mails.filter((m) => m.to.includes(`${name}@example.com`)).map((m) => m.subject);

    it('mails the owner of a suspended webhook once, and the admins of an owning organization', async () => {
      const hub = { baseUrl, adminToken: ADMIN };
      const [owner, admin] = [await makeUser(hub), await makeUser(hub)];
      const org = await makeOrg(hub, 'team', [admin.name]);
      const bus = t.hub.app.get(EventBus);
      const event: WebhookSuspendedEvent = {
        webhookId: 'a'.repeat(24),
        ownerId: owner.id,
        ownerName: owner.name,
        url: 'https://example.com/hook',
        reason: 'failing',
        suspendedAt: new Date().toISOString(),
      };
      await bus.publish(WebhookEvents.Suspended, event, { msgId: 'b'.repeat(24) });
      await bus.publish(WebhookEvents.Suspended, event, { msgId: 'c'.repeat(24) });
      await bus.publish(
        WebhookEvents.Suspended,
        { ...event, ownerName: org.name, ownerType: 'org' },
        { msgId: 'd'.repeat(24) },
      );
      const deadline = Date.now() + 10_000;
      while ((mailsTo(owner.name).length < 2 || mailsTo(admin.name).length < 1) && Date.now() < deadline)
        await sleep(50);
      expect(mailsTo(owner.name)).toEqual([
        `Your webhook ${'a'.repeat(24)} was suspended`,
        `Your webhook ${'a'.repeat(24)} was suspended`,
      ]);
      expect(mailsTo(admin.name)).toEqual([`Your webhook ${'a'.repeat(24)} was suspended`]);
    });

    it('mails the end of a job, not its other stage changes, only while job_status is on', async () => {
      const hub = { baseUrl, adminToken: ADMIN };
      const [on, off] = [await makeUser(hub), await makeUser(hub)];
      const patch = await http(baseUrl, 'PATCH', '/api/settings/notifications', {
        token: off.token,
        body: { notifications: { job_status: false } },
      });
      expect(patch.status).toBe(200);
      const bus = t.hub.app.get(EventBus);
      const at = new Date().toISOString();
      // Events from before createdById existed name the user only: both kinds must work.
      const job = (
        id: string,
        user: { id: string; name: string },
        stage: JobStatusEvent['stage'],
        withId = true,
      ): JobStatusEvent => ({
        jobId: id,
        namespace: user.name,
        ownerId: user.id,
        createdByName: user.name,
        ...(withId ? { createdById: user.id } : {}),
        stage,
        failureCount: 0,
        at,
      });
      await bus.publish(JobsEvents.JobStatus, job('aaaaaaaaaaaaaaaaaaaaaaa1', off, 'ERROR'));
      await bus.publish(JobsEvents.JobStatus, job('aaaaaaaaaaaaaaaaaaaaaaa3', off, 'COMPLETED', false));
      await bus.publish(JobsEvents.JobStatus, job('aaaaaaaaaaaaaaaaaaaaaaa2', on, 'SCHEDULING'));
      await bus.publish(JobsEvents.JobStatus, job('aaaaaaaaaaaaaaaaaaaaaaa2', on, 'RUNNING'));
      await bus.publish(JobsEvents.JobStatus, job('aaaaaaaaaaaaaaaaaaaaaaa2', on, 'COMPLETED'));
      await bus.publish(JobsEvents.JobStatus, job('aaaaaaaaaaaaaaaaaaaaaaa4', on, 'CANCELED', false));
      await smtp.waitFor(smtp.mails.length + 2);
      await sleep(300);
      expect(mailsTo(on.name).sort()).toEqual([
        'Job aaaaaaaaaaaaaaaaaaaaaaa2 is COMPLETED',
        'Job aaaaaaaaaaaaaaaaaaaaaaa4 is CANCELED',
      ]);
      expect(mailsTo(off.name)).toEqual([]);
    });
  });
});
