import { Injectable } from '@nestjs/common';
import {
  auditEvent,
  Events,
  type OrgRevocationView,
  type RequestContext,
  type RevokeForOrgRpc,
  type TokenRevokedEvent,
} from '@hub/contracts';
import { Outbox } from '@hub/messaging';

/** Cuts a token off from one organization; it keeps working elsewhere. Idempotent. */
@Injectable()
export class RevokeTokenForOrgUseCase {
  constructor(private readonly outbox: Outbox) {}

  async execute(dto: RevokeForOrgRpc, ctx: RequestContext): Promise<OrgRevocationView> {
    // The revocation and its event commit together (decision 0007); every gateway hears it
    // before the caller gets the answer.
    const { event, id } = await this.outbox.transaction(async (m) => {
      const inserted = (await m.query(
        `INSERT INTO credentials.org_token_revocations (token_id, organization_id, organization_name, revoked_by)
         VALUES ($1, $2, $3, $4) ON CONFLICT (token_id, organization_id) DO NOTHING RETURNING token_id`,
        [dto.tokenId, dto.organizationId, dto.organizationName, ctx.userId ?? null],
      )) as unknown[];
      if (inserted.length > 0) {
        // The organization's audit log (kept by organizations) records who cut which token off (decision 0410).
        const type = 'org.token_approval.authorization_request.revoked';
        const org = { id: dto.organizationId, name: dto.organizationName };
        await this.outbox.add(
          m,
          Events.Audit.of(type),
          auditEvent(ctx, org, type, `Token ${dto.tokenId} revoked for ${org.name}`, {
            tokenId: dto.tokenId,
          }),
          { aggregate: dto.organizationId },
        );
      }
      const [row] = (await m.query(
        `SELECT created_at FROM credentials.org_token_revocations WHERE token_id = $1 AND organization_id = $2`,
        [dto.tokenId, dto.organizationId],
      )) as { created_at: Date }[];
      const revoked: TokenRevokedEvent = {
        tokenIds: [dto.tokenId],
        organizationId: dto.organizationId,
        revokedAt: new Date(row?.created_at ?? Date.now()).toISOString(),
      };
      return { event: revoked, id: await this.outbox.add(m, Events.TokenRevoked, revoked, { aggregate: dto.tokenId }) };
    });
    await this.outbox.publishNow(Events.TokenRevoked, event, id);
    return { tokenId: dto.tokenId, organization: dto.organizationName, revokedAt: event.revokedAt };
  }
}
