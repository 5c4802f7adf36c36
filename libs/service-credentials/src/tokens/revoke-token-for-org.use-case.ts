import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { Events, type OrgRevocationView, type RequestContext, type RevokeForOrgRpc, type TokenRevokedEvent } from '@hub/contracts';
import { EventBus } from '@hub/messaging';
import { CREDENTIALS_DS } from '../credentials.tokens';

/** Cuts a token off from one organization; it keeps working elsewhere. Idempotent. */
@Injectable()
export class RevokeTokenForOrgUseCase {
  constructor(
    @InjectDataSource(CREDENTIALS_DS) private readonly ds: DataSource,
    private readonly events: EventBus,
  ) {}

  async execute(dto: RevokeForOrgRpc, ctx: RequestContext): Promise<OrgRevocationView> {
    await this.ds.query(
      `INSERT INTO credentials.org_token_revocations (token_id, organization_id, organization_name, revoked_by)
       VALUES ($1, $2, $3, $4) ON CONFLICT (token_id, organization_id) DO NOTHING`,
      [dto.tokenId, dto.organizationId, dto.organizationName, ctx.userId ?? null],
    );
    const [row] = (await this.ds.query(
      `SELECT created_at FROM credentials.org_token_revocations WHERE token_id = $1 AND organization_id = $2`,
      [dto.tokenId, dto.organizationId],
    )) as { created_at: Date }[];
    const event: TokenRevokedEvent = {
      tokenIds: [dto.tokenId],
      organizationId: dto.organizationId,
      revokedAt: new Date(row?.created_at ?? Date.now()).toISOString(),
    };
    await this.events.publish(Events.TokenRevoked, event, { msgId: `org-revoked:${dto.organizationId}:${dto.tokenId}` });
    return { tokenId: dto.tokenId, organization: dto.organizationName, revokedAt: event.revokedAt };
  }
}
