import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type RequestContext } from '@hub/contracts';
import { OrganizationsRpc } from '@hub/organizations-contract';
import {
  CredentialsRpc,
  type OrgRevocationView,
  type RevokeMemberTokenRpc,
  tokenHash,
} from '@hub/credentials-contract';
import { RpcClient, RpcHandler } from '@hub/messaging';
import { CREDENTIALS_DS } from '../credentials.di';
import { RevokeTokenForOrgUseCase } from './revoke-token-for-org.use-case';
import { TokensStore } from './tokens.store';
import { OwnTokenError, TokenNotInOrganizationError, TokenOrIdRequiredError } from './tokens.errors';

/** Stands in for "no owner" so an unknown token costs the same member check as an outsider's. */
const NOBODY = '000000000000000000000000';

/**
 * Spec 4.2, organization side, as one use case beside the tokens: an admin (the caller) cuts a
 * member's token off from the organization. Not the caller's own token; the owner must be a
 * member (organizations answers that by RPC: credentials never reads its tables). An unknown
 * token and an outsider's get the same 404 after the same work.
 */
@Injectable()
export class RevokeMemberTokenUseCase {
  constructor(
    @InjectDataSource(CREDENTIALS_DS) private readonly ds: DataSource,
    private readonly rpc: RpcClient,
    private readonly revoke: RevokeTokenForOrgUseCase,
  ) {}

  @RpcHandler(CredentialsRpc.RevokeForOrg)
  async execute(dto: RevokeMemberTokenRpc, ctx: RequestContext): Promise<OrgRevocationView> {
    if (!dto.token === !dto.tokenId) throw new TokenOrIdRequiredError();
    const key = dto.token ? { tokenHash: tokenHash(dto.token) } : { id: dto.tokenId ?? '' };
    const token = await TokensStore.findActive(this.ds.manager, key);
    if (token && token.userId === ctx.userId) throw new OwnTokenError();
    const owner = await this.rpc.call(
      OrganizationsRpc.GetAccess,
      { organization: dto.organizationName, userId: token?.userId ?? NOBODY },
      ctx,
    );
    if (!token || owner.role === null || owner.organization.id !== dto.organizationId) {
      throw new TokenNotInOrganizationError(dto.organizationName);
    }
    return this.revoke.execute(
      { tokenId: token.id, organizationId: dto.organizationId, organizationName: dto.organizationName },
      ctx,
    );
  }
}
