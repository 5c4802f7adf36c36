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
  private again = false;
  private stopped = false;

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
      mail.id, mail.recipient, mail.subject, mail.body,
    ]);
  }

  onApplicationBootstrap(): void {
    if (this.config.SMTP_URL) this.transport = createTransport(this.config.SMTP_URL);
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
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

  private async drain(): Promise<void> {
    for (;;) {
      const sent = await this.ds.transaction(async (m) => {
        const batch: PendingMail[] = await m.query(
          `SELECT id, recipient, subject, body FROM ${this.schema}.email_outbox
            WHERE sent_at IS NULL AND attempts < 10 ORDER BY created_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
        );
        for (const mail of batch) {
          try {
            const via = await this.send(mail);
            await m.query(`UPDATE ${this.schema}.email_outbox SET sent_at = now(), sent_via = $2, attempts = attempts + 1 WHERE id = $1`, [mail.id, via]);
          } catch (err) {
            this.logger.warn({ err, mailId: mail.id }, 'mail not sent, will retry');
            await m.query(`UPDATE ${this.schema}.email_outbox SET attempts = attempts + 1, last_error = $2 WHERE id = $1`, [mail.id, String(err)]);
          }
        }
        return batch.length;
      });
      if (sent < BATCH || this.stopped) return;
    }
  }

  private async send(mail: PendingMail): Promise<'smtp' | 'log'> {
    if (!this.transport) {
      this.logger.log({ to: mail.recipient, subject: mail.subject, body: mail.body }, `mail to ${mail.recipient}: ${mail.subject}`);
      return 'log';
    }
    await this.transport.sendMail({ from: this.config.SMTP_FROM, to: mail.recipient, subject: mail.subject, text: mail.body });
    return 'smtp';
  }
}
