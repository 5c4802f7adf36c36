import { Logger } from '@nestjs/common';
import * as pg from 'pg';
import { DataSource } from 'typeorm';
import { createTestDatabase, describeWithInfra, type TestDatabase } from '@hub/testing';
import { createEmailOutboxTableV1 } from './email-outbox-table';
import { OutboxMailer } from './outbox-mailer';

/** The tables a service's migrations create (for example notifications' create-email-outbox). */
async function createMailTables(ds: DataSource, schema: string): Promise<void> {
  await ds.query(`CREATE SCHEMA ${schema}`);
  await createEmailOutboxTableV1(ds, schema);
  await ds.query(`CREATE TABLE ${schema}.applied_events (id varchar(140) PRIMARY KEY)`);
}

describeWithInfra('e-mail outbox without SMTP (mails to the log)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let mailer: OutboxMailer;
  const logged: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await new DataSource({ type: 'postgres', url: db.url, driver: pg, poolSize: 2 }).initialize();
    await createMailTables(ds, 'svc');
    jest
      .spyOn(Logger.prototype, 'log')
      .mockImplementation((_fields: unknown, message?: unknown) => void logged.push(String(message)));
    mailer = new OutboxMailer(ds, 'svc', { SMTP_FROM: 'hub@example.com' });
    mailer.onApplicationBootstrap();
  });

  afterAll(async () => {
    await mailer?.onApplicationShutdown();
    jest.restoreAllMocks();
    await ds?.destroy();
    await db?.drop();
  });

  const mail = (id: string, to: string): { id: string; recipient: string; subject: string; body: string } => ({
    id,
    recipient: to,
    subject: `hello ${to}`,
    body: 'body',
  });

  async function sentRows(): Promise<{ recipient: string; sent_via: string | null; attempts: number }[]> {
    return ds.query('SELECT recipient, sent_via, attempts FROM svc.email_outbox ORDER BY recipient');
  }

  it('writes the mails of a fact once, sends each once to the log, and marks them sent', async () => {
    expect(
      await mailer.enqueueOnce('svc.applied_events', 'fact-1', [
        mail('a'.repeat(24), 'ann@x.org'),
        mail('b'.repeat(24), 'bob@x.org'),
      ]),
    ).toBe(true);
    // A redelivered fact writes nothing, even with new mail ids.
    expect(await mailer.enqueueOnce('svc.applied_events', 'fact-1', [mail('c'.repeat(24), 'ann@x.org')])).toBe(false);
    const deadline = Date.now() + 5_000;
    while ((await sentRows()).some((r) => r.sent_via === null) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(await sentRows()).toEqual([
      { recipient: 'ann@x.org', sent_via: 'log', attempts: 1 },
      { recipient: 'bob@x.org', sent_via: 'log', attempts: 1 },
    ]);
    expect(logged.filter((l) => l.startsWith('mail to')).sort()).toEqual([
      'mail to ann@x.org: hello ann@x.org',
      'mail to bob@x.org: hello bob@x.org',
    ]);
  });

  it('records a fact with no recipients, so a redelivery is still recognised', async () => {
    expect(await mailer.enqueueOnce('svc.applied_events', 'fact-2', [])).toBe(true);
    expect(await mailer.enqueueOnce('svc.applied_events', 'fact-2', [])).toBe(false);
  });

  it('writes the mails of many facts in one statement: only those of facts not applied before, each once', async () => {
    const fresh = await mailer.enqueueEachOnce('svc.applied_events', [
      { key: 'fact-1', mails: [mail('d'.repeat(24), 'old@x.org')] },
      { key: 'fact-3', mails: [mail('e'.repeat(24), 'cat@x.org'), mail('f'.repeat(24), 'dan@x.org')] },
      { key: 'fact-4', mails: [mail('1'.repeat(24), 'eve@x.org')] },
      { key: 'fact-5', mails: [] },
    ]);
    expect([...fresh].sort()).toEqual(['fact-3', 'fact-4', 'fact-5']);
    const rows: { recipient: string }[] = await ds.query('SELECT recipient FROM svc.email_outbox ORDER BY recipient');
    expect(rows.map((r) => r.recipient)).toEqual(['ann@x.org', 'bob@x.org', 'cat@x.org', 'dan@x.org', 'eve@x.org']);
    expect(await mailer.enqueueEachOnce('svc.applied_events', [{ key: 'fact-4', mails: [] }])).toEqual(new Set());
  });
});
