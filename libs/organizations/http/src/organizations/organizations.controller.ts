import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type RequestContext } from '@hub/contracts';
import { OrganizationsRpc } from '@hub/organizations-contract';
import { RpcClient } from '@hub/messaging';
import { ApiErrorResponse, Ctx, OrgNameParam, OrgScoped } from '@hub/service-gateway';
import { OrgMember } from './org-member.view';

@ApiTags('orgs')
@ApiBearerAuth()
@Controller('api/organizations/:name')
export class OrganizationsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('members')
  @OrgScoped()
  @ApiOperation({ summary: 'Members of the organization and their roles (members only)' })
  @ApiOkResponse({ description: 'The members', type: OrgMember, isArray: true })
  @ApiErrorResponse(
    403,
    'Not a member, a member with the no_access role, or the token was revoked by this organization',
  )
  @ApiErrorResponse(404, 'No such organization')
  async members(@Param() p: OrgNameParam, @Ctx() ctx: RequestContext): Promise<OrgMember[]> {
    const members = await this.rpc.call(OrganizationsRpc.ListMembers, { organization: p.name }, ctx);
    return members.map((m) => ({ _id: m.userId, type: 'user', user: m.user, role: m.role }));
  }
}
