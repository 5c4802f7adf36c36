import { Body, Controller, Delete, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { AdminNamesQueryDto, type RequestContext } from '@hub/contracts';
import {
  AdminAddMemberDto,
  AdminCreateOrganizationDto,
  AdminChangeRoleDto,
  AdminOrganizationView,
  MemberView,
  OrganizationsRpc,
  OrganizationView,
} from '@hub/organizations-contract';
import { CredentialsRpc, type UserView } from '@hub/credentials-contract';
import { RpcClient } from '@hub/messaging';
import {
  AdminListRoute,
  AdminOnly,
  ApiErrorResponse,
  Ctx,
  MembershipCache,
  OrgNameParam,
  pagedAnswer,
} from '@hub/service-gateway';

import { MemberParam } from './admin.params';

@ApiTags('admin')
@ApiBearerAuth()
@AdminOnly()
@Controller('admin/organizations')
export class AdminOrganizationsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly memberships: MembershipCache,
  ) {}

  private user(name: string, ctx: RequestContext): Promise<UserView> {
    return this.rpc.call(CredentialsRpc.GetUser, { name }, ctx);
  }

  @Post()
  @ApiOperation({ summary: 'Create an organization with its first admins' })
  @ApiCreatedResponse({ description: 'The organization', type: OrganizationView })
  @ApiErrorResponse(404, 'An admin is not a user')
  @ApiErrorResponse(409, 'The name is taken')
  async create(@Body() dto: AdminCreateOrganizationDto, @Ctx() ctx: RequestContext): Promise<OrganizationView> {
    const admins = await Promise.all(dto.admins.map((name) => this.user(name, ctx)));
    const org = await this.rpc.call(
      OrganizationsRpc.Create,
      {
        name: dto.name,
        fullname: dto.fullname,
        plan: dto.plan,
        admins: admins.map((u) => ({ id: u.id, name: u.name })),
      },
      ctx,
    );
    // Other replicas hear it from organizations; this one answers the next request right.
    admins.forEach((u) => this.memberships.delete(u.id));
    return org;
  }

  @AdminListRoute(
    '',
    'List organizations by name with their member counts, filtered by `search` (name or full name; paged by Link headers)',
    AdminOrganizationView,
    'organizations',
  )
  async list(
    @Query() query: AdminNamesQueryDto,
    @Ctx() ctx: RequestContext,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AdminOrganizationView[]> {
    return pagedAnswer(req, reply, await this.rpc.call(OrganizationsRpc.List, query, ctx));
  }

  @Post(':name/members')
  @HttpCode(200)
  @ApiOperation({ summary: "Add a member, or change a member's role" })
  @ApiOkResponse({ description: 'The membership', type: MemberView })
  @ApiErrorResponse(404, 'No such organization or user')
  async addMember(
    @Param() p: OrgNameParam,
    @Body() dto: AdminAddMemberDto,
    @Ctx() ctx: RequestContext,
  ): Promise<MemberView> {
    const user = await this.user(dto.user, ctx);
    const member = await this.rpc.call(
      OrganizationsRpc.AddMember,
      {
        organization: p.name,
        user: { id: user.id, name: user.name },
        role: dto.role,
      },
      ctx,
    );
    this.memberships.delete(user.id);
    return member;
  }

  @Delete(':name/members/:user')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a member (and its SCIM provisioning and resource group entries)' })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiErrorResponse(404, 'No such organization, user or member')
  @ApiErrorResponse(409, 'The member is the last admin')
  async removeMember(@Param() p: MemberParam, @Ctx() ctx: RequestContext): Promise<void> {
    const user = await this.user(p.user, ctx);
    await this.rpc.call(OrganizationsRpc.RemoveMember, { organization: p.name, userId: user.id }, ctx);
    this.memberships.delete(user.id);
  }

  @Patch(':name/members/:user')
  @ApiOperation({ summary: "Change a member's role" })
  @ApiOkResponse({ description: 'The membership', type: MemberView })
  @ApiErrorResponse(404, 'No such organization, user or member')
  @ApiErrorResponse(409, 'The member is the last admin')
  async changeRole(
    @Param() p: MemberParam,
    @Body() dto: AdminChangeRoleDto,
    @Ctx() ctx: RequestContext,
  ): Promise<MemberView> {
    const user = await this.user(p.user, ctx);
    const member = await this.rpc.call(
      OrganizationsRpc.ChangeRole,
      { organization: p.name, userId: user.id, role: dto.role },
      ctx,
    );
    this.memberships.delete(user.id);
    return member;
  }
}
