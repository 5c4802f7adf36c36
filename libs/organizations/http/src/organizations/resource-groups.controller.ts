import { Body, Controller, Param, Patch } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type RequestContext } from '@hub/contracts';
import { ResourceGroupsRpc, ResourceGroupView, UpdateResourceGroupDto } from '@hub/organizations-contract';
import { RpcClient } from '@hub/messaging';
import { ApiErrorResponse, Ctx, OrgScoped } from '@hub/service-gateway';
import { ResourceGroupParam } from './resource-group.params';

@ApiTags('orgs')
@ApiBearerAuth()
@Controller('api/organizations/:name/resource-groups')
export class ResourceGroupsController {
  constructor(private readonly rpc: RpcClient) {}

  @Patch(':resourceGroupId')
  @OrgScoped({ role: 'admin', minPlan: 'team' })
  @ApiOperation({ summary: 'Rename a resource group or change its description (org admins, Team plan or higher)' })
  @ApiOkResponse({ description: 'The resource group', type: ResourceGroupView })
  @ApiErrorResponse(400, 'name or description out of bounds')
  @ApiErrorResponse(403, 'Not an admin of the organization, or the plan has no resource groups')
  @ApiErrorResponse(404, 'No such organization or resource group')
  update(
    @Param() p: ResourceGroupParam,
    @Body() dto: UpdateResourceGroupDto,
    @Ctx() ctx: RequestContext,
  ): Promise<ResourceGroupView> {
    return this.rpc.call(
      ResourceGroupsRpc.Update,
      { organization: p.name, groupId: p.resourceGroupId, changes: dto },
      ctx,
    );
  }
}
