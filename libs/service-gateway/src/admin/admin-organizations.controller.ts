import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AdminAddMemberDto, AdminCreateOrganizationDto, CredentialsRpc, type MemberView, OrganizationsRpc, type OrganizationView,
  type RequestContext, type UserView,
} from '@hub/contracts';
import { RpcClient } from '@hub/messaging';
import { OrgNameParam } from '../api/params';
import { AdminOnly, Ctx } from '../auth/auth.decorators';

@ApiTags('admin')
@ApiBearerAuth()
@AdminOnly()
@Controller('admin/organizations')
export class AdminOrganizationsController {
  constructor(private readonly rpc: RpcClient) {}

  private user(name: string, ctx: RequestContext): Promise<UserView> {
    return this.rpc.call<UserView>(CredentialsRpc.GetUser, { name }, ctx);
  }

  @Post()
  @ApiOperation({ summary: 'Create an organization with its first admins' })
  @ApiCreatedResponse({ description: 'The organization' })
  async create(@Body() dto: AdminCreateOrganizationDto, @Ctx() ctx: RequestContext): Promise<OrganizationView> {
    const admins = await Promise.all(dto.admins.map((name) => this.user(name, ctx)));
    return this.rpc.call<OrganizationView>(OrganizationsRpc.Create, {
      name: dto.name, fullname: dto.fullname, plan: dto.plan, admins: admins.map((u) => ({ id: u.id, name: u.name })),
    }, ctx);
  }

  @Post(':name/members')
  @HttpCode(200)
  @ApiOperation({ summary: "Add a member, or change a member's role" })
  @ApiOkResponse({ description: 'The membership' })
  async addMember(@Param() p: OrgNameParam, @Body() dto: AdminAddMemberDto, @Ctx() ctx: RequestContext): Promise<MemberView> {
    const user = await this.user(dto.user, ctx);
    return this.rpc.call<MemberView>(OrganizationsRpc.AddMember, {
      organization: p.name, user: { id: user.id, name: user.name }, role: dto.role,
    }, ctx);
  }
}
