import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  type AuthInfo, CredentialsRpc, type FindTokenRpc, ForbiddenError, NotFoundError, OrganizationsRpc, OrgRevocationView, OrgRevokeTokenDto, type RequestContext, type OrganizationAccess } from '@hub/contracts';
import { RpcClient } from '@hub/messaging';
import { ApiErrorResponse, Ctx, CurrentAuth, CurrentOrg, OrgScoped, TokenCache, TokenIdParam } from '../core';

export interface OrgRevocation {
  tokenId: string;
  organization: string;
  revokedAt: string;
}

/**
 * Spec 4.2: an organization admin (Enterprise) cuts a member's token off from the organization;
 * the token keeps working elsewhere.
 */
@ApiTags('orgs')
@ApiBearerAuth()
@ApiErrorResponse(404, 'No such organization, no such active token, or no member of it holds the token')
@Controller('api/organizations/:name/settings/tokens')
export class OrgTokensController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly tokens: TokenCache,
  ) {}

  @Post('revoke')
  @HttpCode(200)
  @OrgScoped({ role: 'admin', minPlan: 'enterprise' })
  @ApiOperation({ summary: "Revoke a member's token for this organization (Enterprise)" })
  @ApiOkResponse({ description: 'The revocation', type: OrgRevocationView })
  @ApiForbiddenResponse({ description: 'not an admin, not Enterprise, or your own token' })
  revokeByValue(
    @Body() dto: OrgRevokeTokenDto,
    @CurrentAuth() caller: AuthInfo,
    @CurrentOrg() org: OrganizationAccess,
    @Ctx() ctx: RequestContext,
  ): Promise<OrgRevocation> {
    return this.revoke({ token: dto.token }, caller, org, ctx);
  }

  @Post(':tokenId/revoke')
  @HttpCode(200)
  @OrgScoped({ role: 'admin', minPlan: 'enterprise' })
  @ApiOperation({ summary: "Revoke a member's token for this organization by token id (Enterprise)" })
  @ApiForbiddenResponse({ description: 'not an admin, not Enterprise, or your own token' })
  @ApiOkResponse({ description: 'The revocation', type: OrgRevocationView })
  revokeById(
    @Param() p: TokenIdParam,
    @CurrentAuth() caller: AuthInfo,
    @CurrentOrg() org: OrganizationAccess,
    @Ctx() ctx: RequestContext,
  ): Promise<OrgRevocation> {
    return this.revoke({ tokenId: p.tokenId }, caller, org, ctx);
  }

  private async revoke(find: FindTokenRpc, caller: AuthInfo, org: OrganizationAccess, ctx: RequestContext): Promise<OrgRevocation> {
    const token = await this.rpc.call(CredentialsRpc.FindToken, find, ctx);
    if (token.userId === caller.user.id) {
      throw new ForbiddenError('You cannot revoke your own token for your organization', 'OWN_TOKEN');
    }
    const owner = await this.rpc.call(OrganizationsRpc.GetAccess, {
      organization: org.organization.name, userId: token.userId,
    }, ctx);
    if (owner.role === null) {
      throw new NotFoundError(`No member of ${org.organization.name} holds this token`, 'TOKEN_NOT_IN_ORG');
    }
    const result = await this.rpc.call(CredentialsRpc.RevokeForOrg, {
      tokenId: token.id, organizationId: org.organization.id, organizationName: org.organization.name,
    }, ctx);
    this.tokens.deleteTokenIds([token.id]);
    return result;
  }
}
