import { type DataSource } from 'typeorm';
import { NotFoundError, type RequestContext } from '@hub/contracts';
import { type UserView } from '@hub/credentials-contract';
import { type JobStatusEvent } from '@hub/jobs-contract';
import { OutboxMailer } from '@hub/messaging';
import { openDataSource, runMigrations } from '@hub/persistence';
import { createTestDatabase, describeWithInfra, type TestDatabase } from '@hub/testing';
import { NOTIFICATIONS_MIGRATIONS } from '../migrations';
import { type JobEnd, JobStatusMails } from './job-status-mails';

const ANN = { id: 'a00000000000000000000001', name: 'ann', email: 'ann@example.com' };
const BOB = { id: 'b00000000000000000000002', name: 'bob', email: 'bob@example.com' };
const GONE_ID = 'c00000000000000000000003';

describeWithInfra('job mails in batches (real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let mails: JobStatusMails;
  let mailer: OutboxMailer;
  /** The user lookups made, by name (credentials' GetUser in the service). */
  const lookups: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await openDataSource({
      schema: 'notifications',
      entities: [],
      migrations: NOTIFICATIONS_MIGRATIONS,
      databaseUrl: db.url,
      poolSize: 2,
    });
    await runMigrations(ds, 'notifications');
    await ds.query(`INSERT INTO notifications.settings (user_id, values) VALUES ($1, '{"job_status": false}')`, [
      BOB.id,
    ]);
    const users = new Map([ANN, BOB].map((u) => [u.name, u]));
    const user = async (name: string, _ctx: RequestContext): Promise<UserView> => {
      lookups.push(name);
      const u = users.get(name);
      if (!u) throw new NotFoundError(`user ${name} not found`);
      return { ...u, fullname: u.name } as UserView;
    };
    // Without SMTP it sends to the log; the rows stay in the outbox, where the test reads them.
    mailer = new OutboxMailer(ds, 'notifications', { SMTP_FROM: 'hub@example.com' });
    mails = new JobStatusMails(ds, mailer, user, 'http://hub.test');
  });

  afterAll(async () => {
    await mailer?.onApplicationShutdown();
    await ds?.destroy();
    await db?.drop();
  });

  const end = (jobId: string, by: { name: string; id?: string }, key = jobId): JobEnd => ({
    event: {
      jobId,
      namespace: by.name,
      ownerId: by.id ?? ANN.id,
      createdByName: by.name,
      ...(by.id ? { createdById: by.id } : {}),
      stage: 'COMPLETED',
      at: '2026-11-29T08:00:00.000Z',
    } as JobStatusEvent,
    key: `job-status:${key}`,
    ctx: { requestId: `r-${key}` },
  });
  const outbox = async (): Promise<{ recipient: string; subject: string }[]> =>
    ds.query('SELECT recipient, subject FROM notifications.email_outbox ORDER BY subject');
  const settled = (p: Promise<void>): Promise<string> =>
    p.then(
      () => 'ok',
      (err: Error) => err.message,
    );

  it('mails a burst of job ends with one lookup per user; skips a user with job_status off unlooked; a missing user fails alone', async () => {
    const burst = [
      end('f00000000000000000000001', ANN),
      end('f00000000000000000000002', ANN),
      end('f00000000000000000000003', BOB),
      end('f00000000000000000000004', { name: 'gone', id: GONE_ID }),
      // An event from before ends carried the user's id: the setting is read after the lookup.
      end('f00000000000000000000005', { name: 'ann' }),
    ];
    expect(await Promise.all(burst.map((e) => settled(mails.add(e))))).toEqual([
      'ok',
      'ok',
      'ok',
      'user gone not found',
      'ok',
    ]);
    expect(lookups.sort()).toEqual(['ann', 'gone']);
    expect(await outbox()).toEqual(
      ['1', '2', '5'].map((n) => ({
        recipient: ANN.email,
        subject: `Job f0000000000000000000000${n} is COMPLETED`,
      })),
    );
  });

  it('a redelivered end writes no second mail, in a batch of its own or beside new ones', async () => {
    await mails.add(end('f00000000000000000000001', ANN));
    await Promise.all([
      mails.add(end('f00000000000000000000002', ANN)),
      mails.add(end('f00000000000000000000006', ANN)),
    ]);
    expect((await outbox()).map((m) => m.subject)).toEqual(
      ['1', '2', '5', '6'].map((n) => `Job f0000000000000000000000${n} is COMPLETED`),
    );
  });
});
