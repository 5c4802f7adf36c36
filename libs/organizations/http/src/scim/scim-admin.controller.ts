import { Body, Controller, Param, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyRequest } from 'fastify';
import { type RequestContext } from '@hub/contracts';
import { AdminScimLinkDto, ScimRpc } from '@hub/organizations-contract';
import { CredentialsRpc } from '@hub/credentials-contract';
import { RpcClient } from '@hub/messaging';
import { AdminOnly, ApiErrorResponse, Ctx, MembershipCache, OrgNameParam } from '@hub/service-gateway';
import { renderUser, scimBase } from './scim-render';

/**
 * The operator links an existing hub user to an organization's directory (decision 0421): SCIM
 * itself only ever creates new managed accounts, so no name match can adopt anyone.
 */
@ApiTags('admin')
@ApiBearerAuth()
@AdminOnly()
@Controller('admin/organizations')
export class ScimAdminController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly memberships: MembershipCache,
  ) {}

  @Post(':name/scim/users')
  @ApiOperation({
    summary:
      "Link an existing hub user to the organization's SCIM directory under the identity provider's userName (it joins as read if not a member)",
  })
  @ApiCreatedResponse({ description: 'The SCIM user', schema: { type: 'object', additionalProperties: true } })
  @ApiErrorResponse(404, 'No such organization or user')
  @ApiErrorResponse(409, 'The user or the userName is already provisioned in the organization')
  async link(
    @Param() p: OrgNameParam,
    @Body() dto: AdminScimLinkDto,
    @Ctx() ctx: RequestContext,
    @Req() req: FastifyRequest,
  ): Promise<Record<string, unknown>> {
    const user = await this.rpc.call(CredentialsRpc.GetUser, { name: dto.user }, ctx);
    const linked = await this.rpc.call(
      ScimRpc.LinkUser,
      {
        organization: p.name,
        userId: user.id,
        hubName: user.name,
        userName: dto.userName,
        ...(dto.externalId ? { externalId: dto.externalId } : {}),
      },
      ctx,
    );
    this.memberships.delete(user.id);
    return renderUser(linked, scimBase(req, p.name));
  }
}
