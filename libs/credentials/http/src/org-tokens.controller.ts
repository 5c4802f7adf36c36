import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type RequestContext } from '@hub/contracts';
import { type OrganizationAccess } from '@hub/organizations-contract';
import { CredentialsRpc, OrgRevocationView, OrgRevokeTokenDto } from '@hub/credentials-contract';
import { RpcClient } from '@hub/messaging';
import { ApiErrorResponse, Ctx, CurrentOrg, OrgScoped, TokenCache } from '@hub/service-gateway';
import { TokenIdParam } from './token.params';

export interface OrgRevocation {
  tokenId: string;
  organization: string;
  revokedAt: string;
}

/**
 * Spec 4.2: an organization admin (Enterprise) cuts a member's token off from the organization;
 * the token keeps working elsewhere. The rules (not your own token, the owner is a member) are
 * the credentials service's: one RPC (decision 0003).
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
    @CurrentOrg() org: OrganizationAccess,
    @Ctx() ctx: RequestContext,
  ): Promise<OrgRevocation> {
    return this.revoke({ token: dto.token }, org, ctx);
  }

  @Post(':tokenId/revoke')
  @HttpCode(200)
  @OrgScoped({ role: 'admin', minPlan: 'enterprise' })
  @ApiOperation({ summary: "Revoke a member's token for this organization by token id (Enterprise)" })
  @ApiForbiddenResponse({ description: 'not an admin, not Enterprise, or your own token' })
  @ApiOkResponse({ description: 'The revocation', type: OrgRevocationView })
  revokeById(
    @Param() p: TokenIdParam,
    @CurrentOrg() org: OrganizationAccess,
    @Ctx() ctx: RequestContext,
  ): Promise<OrgRevocation> {
    return this.revoke({ tokenId: p.tokenId }, org, ctx);
  }

  private async revoke(
    which: { token: string } | { tokenId: string },
    org: OrganizationAccess,
    ctx: RequestContext,
  ): Promise<OrgRevocation> {
    const result = await this.rpc.call(
      CredentialsRpc.RevokeForOrg,
      {
        ...which,
        organizationId: org.organization.id,
        organizationName: org.organization.name,
      },
      ctx,
    );
    // This replica forgets it before answering; the others hear the revocation event.
    this.tokens.deleteTokenIds([result.tokenId]);
    return result;
  }
}
