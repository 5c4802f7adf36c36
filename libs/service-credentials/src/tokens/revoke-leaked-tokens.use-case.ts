import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { Events, type TokenRevokedEvent } from '@hub/contracts';
import { Outbox } from '@hub/messaging';
import { newObjectId } from '@hub/persistence';
import { CREDENTIALS_DS } from '../credentials.tokens';
import { leakedTokensMail } from '../mail/mail-templates';
import { OutboxMailer } from '../mail/outbox-mailer';
import { hashToken } from './tokens';

interface RevokedRow {
  id: string;
  user_id: string;
  last4: string;
  display_name: string;
  email: string;
  name: string;
}

/**
 * Spec 4.2, public: every listed token stops working at once and its owner gets one mail.
 * The same statements run whether or not anything matches, so the caller learns nothing; a
 * token already revoked matches nothing, so a repeat call changes nothing and mails nobody.
 */
@Injectable()
export class RevokeLeakedTokensUseCase {
  constructor(
    @InjectDataSource(CREDENTIALS_DS) private readonly ds: DataSource,
    private readonly outbox: Outbox,
    private readonly mailer: OutboxMailer,
  ) {}

  async execute(credentials: string[]): Promise<void> {
    const hashes = [...new Set(credentials)].map(hashToken);
    // The revocation, its mails and its event commit together (decision 0007).
    let published: { event: TokenRevokedEvent; id: string } | undefined;
    const revoked = await this.outbox.transaction(async (m) => {
      const rows: RevokedRow[] = await m.query(
        `WITH r AS (
           UPDATE credentials.access_tokens SET revoked_at = now()
            WHERE token_hash = ANY($1::char(64)[]) AND revoked_at IS NULL
        RETURNING id, user_id, last4, display_name)
         SELECT r.*, u.email, u.name FROM r JOIN credentials.users u ON u.id = r.user_id`,
        [hashes],
      );
      const byUser = new Map<string, RevokedRow[]>();
      for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row]);
      for (const tokens of byUser.values()) {
        const first = tokens[0] as RevokedRow;
        const mail = leakedTokensMail(
          first.name,
          tokens.map((t) => ({ last4: t.last4, displayName: t.display_name })),
        );
        await this.mailer.enqueue(m, { id: newObjectId(), recipient: first.email, ...mail });
      }
      if (rows.length > 0) {
        const event: TokenRevokedEvent = { tokenIds: rows.map((r) => r.id), revokedAt: new Date().toISOString() };
        published = { event, id: await this.outbox.add(m, Events.TokenRevoked, event) };
      }
      return rows;
    });
    // Every gateway hears of it before the 202: a revoked token fails everywhere once it is back.
    if (published) await this.outbox.publishNow(Events.TokenRevoked, published.event, published.id);
    if (revoked.length > 0) this.mailer.kick();
  }
}
