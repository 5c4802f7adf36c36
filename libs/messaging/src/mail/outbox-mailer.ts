import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { type DataSource, type EntityManager } from 'typeorm';

/** Where a service's mails go: SMTP when SMTP_URL is set, else the log. */
export interface MailSettings {
  SMTP_URL?: string;
  SMTP_FROM: string;
}

export interface OutgoingMail {
  id: string;
  recipient: string;
  subject: string;
  body: string;
}

type PendingMail = OutgoingMail;

const POLL_MS = 2000;
const BATCH = 20;
/** Sent mails (and ones given up after 10 attempts) are kept this long, then deleted (decision 0206). */
const KEEP_DONE = `interval '7 days'`;
const PRUNE_EVERY_MS = 3600_000;
/**
 * How long a mail written by `enqueueOnce` waits for others before they are sent together: a
 * consumer writes the mails of a burst of facts one by one (a sweep of 200 jobs ending: 200 job
 * mails), and a claim per mail was a round trip to Postgres per fact (issue 41).
 */
const GATHER_MS = 100;

/**
 * A service's e-mail outbox (`<schema>.email_outbox`, one of its migrations): mails are written
 * in the transaction of what caused them (`enqueue`), then sent. Sends what the outbox holds: over SMTP when SMTP_URL is set, otherwise to the log (the
 * all-in-one mode). Rows are claimed with SKIP LOCKED so replicas never send a mail twice.
 */
export class OutboxMailer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger: Logger;
  private transport: Transporter | null = null;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private lastPrune = 0;
  private again = false;
  private stopped = false;
  private gathering: NodeJS.Timeout | undefined;

  constructor(
    private readonly ds: DataSource,
    private readonly schema: string,
    private readonly config: MailSettings,
  ) {
    this.logger = new Logger(`OutboxMailer:${schema}`);
  }

  /** Writes a mail inside the caller's transaction; call kick() after the commit. */
  async enqueue(m: EntityManager, mail: OutgoingMail): Promise<void> {
    await m.query(`INSERT INTO ${this.schema}.email_outbox (id, recipient, subject, body) VALUES ($1, $2, $3, $4)`, [
      mail.id,
      mail.recipient,
      mail.subject,
      mail.body,
    ]);
  }

  /**
   * Writes the mails of one fact at most once, in one statement: `key` goes into `appliedTable`
   * (a table of ids with a primary key) and the mails only if the key was new. Sends them at once.
   * Returns false for a fact already applied (a redelivered event).
   */
  async enqueueOnce(appliedTable: string, key: string, mails: OutgoingMail[]): Promise<boolean> {
    return (await this.enqueueEachOnce(appliedTable, [{ key, mails }])).has(key);
  }

  /**
   * `enqueueOnce` for many facts in one statement (a burst of them: one round trip, not one per
   * fact). Answers the keys that were new; the mails of the others are not written.
   */
  async enqueueEachOnce(appliedTable: string, facts: { key: string; mails: OutgoingMail[] }[]): Promise<Set<string>> {
    if (facts.length === 0) return new Set();
    // A key given twice is one fact (its last mails).
    const unique = [...new Map(facts.map((f) => [f.key, f])).values()];
    const keys = unique.map((f) => f.key);
    const mails = unique.flatMap((f) => f.mails.map((m) => ({ key: f.key, ...m })));
    const rows: { id: string }[] = await this.ds.query(
      `WITH fresh AS (INSERT INTO ${appliedTable} (id) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING RETURNING id),
            mails AS (INSERT INTO ${this.schema}.email_outbox (id, recipient, subject, body)
              SELECT m.id, m.recipient, m.subject, m.body
                FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS m(key, id, recipient, subject, body)
                JOIN fresh ON fresh.id = m.key)
       SELECT id FROM fresh`,
      [
        keys,
        mails.map((m) => m.key),
        mails.map((m) => m.id),
        mails.map((m) => m.recipient),
        mails.map((m) => m.subject),
        mails.map((m) => m.body),
      ],
    );
    const fresh = new Set(rows.map((r) => r.id));
    if (mails.some((m) => fresh.has(m.key))) this.kickSoon();
    return fresh;
  }

  onApplicationBootstrap(): void {
    if (this.config.SMTP_URL) this.transport = createTransport(this.config.SMTP_URL);
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.gathering);
    await this.running;
    this.transport?.close();
  }

  /** Sends pending mails now (called right after a mail is written). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((err: unknown) => this.logger.error({ err }, 'sending mails failed'))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Sends pending mails within GATHER_MS: those written meanwhile go in the same claim. */
  private kickSoon(): void {
    if (this.gathering || this.stopped) return;
    this.gathering = setTimeout(() => {
      this.gathering = undefined;
      this.kick();
    }, GATHER_MS);
  }

  private async drain(): Promise<void> {
    await this.prune();
    if (!this.transport) return this.drainToLog();
    for (;;) {
      const sent = await this.ds.transaction(async (m) => {
        const batch: PendingMail[] = await m.query(
          `SELECT id, recipient, subject, body FROM ${this.schema}.email_outbox
            WHERE sent_at IS NULL AND attempts < 10 ORDER BY created_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
        );
        for (const mail of batch) {
          try {
            const via = await this.send(mail);
            await m.query(
              `UPDATE ${this.schema}.email_outbox SET sent_at = now(), sent_via = $2, attempts = attempts + 1 WHERE id = $1`,
              [mail.id, via],
            );
          } catch (err) {
            this.logger.warn({ err, mailId: mail.id }, 'mail not sent, will retry');
            await m.query(
              `UPDATE ${this.schema}.email_outbox SET attempts = attempts + 1, last_error = $2 WHERE id = $1`,
              [mail.id, String(err)],
            );
          }
        }
        return batch.length;
      });
      if (sent < BATCH || this.stopped) return;
    }
  }

  /**
   * Without SMTP a mail is a log line, which cannot fail: each batch is claimed and marked sent in
   * one statement, then logged. (A crash between the two loses those log lines, not a real mail.)
   */
  private async drainToLog(): Promise<void> {
    for (;;) {
      const batch: PendingMail[] = await this.ds.query(
        // Inside a CTE: TypeORM returns a bare UPDATE … RETURNING as [rows, count].
        `WITH claimed AS (
           UPDATE ${this.schema}.email_outbox SET sent_at = now(), sent_via = 'log', attempts = attempts + 1
            WHERE id IN (SELECT id FROM ${this.schema}.email_outbox WHERE sent_at IS NULL AND attempts < 10
                          ORDER BY created_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
            RETURNING id, recipient, subject, body, created_at)
         SELECT id, recipient, subject, body FROM claimed ORDER BY created_at`,
      );
      for (const mail of batch) await this.send(mail);
      if (batch.length < BATCH || this.stopped) return;
    }
  }

  /** Deletes what is done with, hourly: the table holds what waits and a week of what was sent. */
  private async prune(): Promise<void> {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    await this.ds.query(
      `DELETE FROM ${this.schema}.email_outbox
        WHERE (sent_at < now() - ${KEEP_DONE}) OR (sent_at IS NULL AND attempts >= 10 AND created_at < now() - ${KEEP_DONE})`,
    );
  }

  private async send(mail: PendingMail): Promise<'smtp' | 'log'> {
    if (!this.transport) {
      this.logger.log(
        { to: mail.recipient, subject: mail.subject, body: mail.body },
        `mail to ${mail.recipient}: ${mail.subject}`,
      );
      return 'log';
    }
    await this.transport.sendMail({
      from: this.config.SMTP_FROM,
      to: mail.recipient,
      subject: mail.subject,
      text: mail.body,
    });
    return 'smtp';
  }
}
