import { Injectable } from '@nestjs/common';
import { auditEvent, Events, type RequestContext } from '@hub/contracts';
import {
  type OrgRevocationView,
  type RevokeForOrgRpc,
  type TokenRevokedEvent,
  CredentialsEvents,
} from '@hub/credentials-contract';
import { Outbox } from '@hub/messaging';
import { TokensStore } from './tokens.store';

/** Cuts a token off from one organization; it keeps working elsewhere. Idempotent. */
@Injectable()
export class RevokeTokenForOrgUseCase {
  constructor(private readonly outbox: Outbox) {}

  async execute(dto: RevokeForOrgRpc, ctx: RequestContext): Promise<OrgRevocationView> {
    // The revocation and its event commit together (decision 0007); every gateway hears it
    // before the caller gets the answer.
    const { event, id } = await this.outbox.transaction(async (m) => {
      const inserted = await TokensStore.insertOrgRevocation(m, {
        tokenId: dto.tokenId,
        organizationId: dto.organizationId,
        organizationName: dto.organizationName,
        revokedBy: ctx.userId ?? null,
      });
      if (inserted) {
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
      const revokedAt = await TokensStore.orgRevokedAt(m, dto.tokenId, dto.organizationId);
      const revoked: TokenRevokedEvent = {
        tokenIds: [dto.tokenId],
        organizationId: dto.organizationId,
        revokedAt: new Date(revokedAt ?? Date.now()).toISOString(),
      };
      return {
        event: revoked,
        id: await this.outbox.add(m, CredentialsEvents.TokenRevoked, revoked, { aggregate: dto.tokenId }),
      };
    });
    await this.outbox.publishNow(CredentialsEvents.TokenRevoked, event, id);
    return { tokenId: dto.tokenId, organization: dto.organizationName, revokedAt: event.revokedAt };
  }
}
