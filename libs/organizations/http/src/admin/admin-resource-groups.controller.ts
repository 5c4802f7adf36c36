import { Body, Controller, Delete, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type RequestContext } from '@hub/contracts';
import {
  AdminCreateResourceGroupDto,
  AdminResourceGroupReposDto,
  AdminResourceGroupUsersDto,
  ResourceGroupsRpc,
  ResourceGroupView,
} from '@hub/organizations-contract';
import { CredentialsRpc } from '@hub/credentials-contract';
import { RpcClient } from '@hub/messaging';
import { AdminOnly, ApiErrorResponse, Ctx, OrgNameParam } from '@hub/service-gateway';
import { ResourceGroupParam } from '../organizations/resource-group.params';
import { ResourceGroupUserParam } from './admin.params';

/** Resource groups are created and filled by the operator (spec 2.8; the hub has no UI for it). */
@ApiTags('admin')
@ApiBearerAuth()
@AdminOnly()
@Controller('admin/organizations/:name/resource-groups')
export class AdminResourceGroupsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @ApiOperation({ summary: 'Create a resource group in an organization' })
  @ApiCreatedResponse({ description: 'The resource group', type: ResourceGroupView })
  @ApiErrorResponse(404, 'No such organization')
  create(
    @Param() p: OrgNameParam,
    @Body() dto: AdminCreateResourceGroupDto,
    @Ctx() ctx: RequestContext,
  ): Promise<ResourceGroupView> {
    return this.rpc.call(ResourceGroupsRpc.Create, { ...dto, organization: p.name }, ctx);
  }

  @Post(':resourceGroupId/users')
  @HttpCode(200)
  @ApiOperation({ summary: 'Add users to a resource group with their roles (a user already in it gets the new role)' })
  @ApiOkResponse({ description: 'The resource group', type: ResourceGroupView })
  @ApiErrorResponse(404, 'No such organization, resource group or user')
  @ApiErrorResponse(409, 'The group is managed by SCIM provisioning')
  async addUsers(
    @Param() p: ResourceGroupParam,
    @Body() dto: AdminResourceGroupUsersDto,
    @Ctx() ctx: RequestContext,
  ): Promise<ResourceGroupView> {
    const users = await Promise.all(
      dto.users.map(async (u) => {
        const user = await this.rpc.call(CredentialsRpc.GetUser, { name: u.user }, ctx);
        return { id: user.id, name: user.name, fullname: user.fullname, role: u.role };
      }),
    );
    return this.rpc.call(ResourceGroupsRpc.AddUsers, { organization: p.name, groupId: p.resourceGroupId, users }, ctx);
  }

  @Post(':resourceGroupId/repos')
  @HttpCode(200)
  @ApiOperation({ summary: 'Add repositories to a resource group' })
  @ApiOkResponse({ description: 'The resource group', type: ResourceGroupView })
  @ApiErrorResponse(404, 'No such organization or resource group')
  addRepos(
    @Param() p: ResourceGroupParam,
    @Body() dto: AdminResourceGroupReposDto,
    @Ctx() ctx: RequestContext,
  ): Promise<ResourceGroupView> {
    return this.rpc.call(
      ResourceGroupsRpc.AddRepos,
      { organization: p.name, groupId: p.resourceGroupId, repos: dto.repos },
      ctx,
    );
  }

  @Delete(':resourceGroupId/users/:user')
  @ApiOperation({ summary: 'Take a user out of a resource group' })
  @ApiOkResponse({ description: 'The resource group', type: ResourceGroupView })
  @ApiErrorResponse(404, 'No such organization, resource group or user, or the user is not in the group')
  @ApiErrorResponse(409, 'The group is managed by SCIM provisioning')
  async removeUser(@Param() p: ResourceGroupUserParam, @Ctx() ctx: RequestContext): Promise<ResourceGroupView> {
    const user = await this.rpc.call(CredentialsRpc.GetUser, { name: p.user }, ctx);
    return this.rpc.call(
      ResourceGroupsRpc.RemoveUser,
      { organization: p.name, groupId: p.resourceGroupId, userId: user.id },
      ctx,
    );
  }
}
