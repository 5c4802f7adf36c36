import { Injectable } from '@nestjs/common';
import {
  CredentialsRpc,
  type RevokeLeakedRpc,
  tokenHash,
  type TokenRevokedEvent,
  CredentialsEvents,
} from '@hub/credentials-contract';
import { Outbox, RpcHandler } from '@hub/messaging';
import { newObjectId } from '@hub/persistence';
import { leakedTokensMail } from '../mail/mail-templates';
import { OutboxMailer } from '../mail/outbox-mailer';
import { type RevokedTokenRow, TokensStore } from './tokens.store';

/**
 * Spec 4.2, public: every listed token stops working at once and its owner gets one mail.
 * The same statements run whether or not anything matches, so the caller learns nothing; a
 * token already revoked matches nothing, so a repeat call changes nothing and mails nobody.
 */
@Injectable()
export class RevokeLeakedTokensUseCase {
  constructor(
    private readonly outbox: Outbox,
    private readonly mailer: OutboxMailer,
  ) {}

  @RpcHandler(CredentialsRpc.RevokeLeaked)
  async execute({ credentials }: RevokeLeakedRpc): Promise<{ accepted: true }> {
    const hashes = [...new Set(credentials)].map(tokenHash);
    // The revocation, its mails and its event commit together (decision 0007).
    let published: { event: TokenRevokedEvent; id: string } | undefined;
    const revoked = await this.outbox.transaction(async (m) => {
      const rows = await TokensStore.revokeByHashes(m, hashes);
      const byUser = new Map<string, RevokedTokenRow[]>();
      for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row]);
      for (const tokens of byUser.values()) {
        const first = tokens[0] as RevokedTokenRow;
        const mail = leakedTokensMail(
          first.name,
          tokens.map((t) => ({ last4: t.last4, displayName: t.display_name })),
        );
        await this.mailer.enqueue(m, { id: newObjectId(), recipient: first.email, ...mail });
      }
      if (rows.length > 0) {
        const event: TokenRevokedEvent = { tokenIds: rows.map((r) => r.id), revokedAt: new Date().toISOString() };
        published = { event, id: await this.outbox.add(m, CredentialsEvents.TokenRevoked, event) };
      }
      return rows;
    });
    // Every gateway hears of it before the 202: a revoked token fails everywhere once it is back.
    if (published) await this.outbox.publishNow(CredentialsEvents.TokenRevoked, published.event, published.id);
    if (revoked.length > 0) this.mailer.kick();
    return { accepted: true };
  }
}
