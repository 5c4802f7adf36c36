import {
  AddResourceGroupReposRpc,
  AddResourceGroupUsersRpc,
  CreateResourceGroupRpc,
  RemoveResourceGroupUserRpc,
  type RequestContext,
  ResourceGroupRefRpc,
  ResourceGroupsRpc,
  type ResourceGroupView,
  UpdateResourceGroupRpc,
} from '@hub/contracts';
import { RpcController, RpcHandler } from '@hub/messaging';
import { ResourceGroupUseCases } from './resource-groups.use-cases';

@RpcController()
export class ResourceGroupsHandler {
  constructor(private readonly groups: ResourceGroupUseCases) {}

  @RpcHandler(ResourceGroupsRpc.Create)
  onCreate(dto: CreateResourceGroupRpc, ctx: RequestContext): Promise<ResourceGroupView> {
    return this.groups.create(dto, ctx);
  }

  @RpcHandler(ResourceGroupsRpc.AddUsers)
  onAddUsers(dto: AddResourceGroupUsersRpc, ctx: RequestContext): Promise<ResourceGroupView> {
    return this.groups.addUsers(dto, ctx);
  }

  @RpcHandler(ResourceGroupsRpc.AddRepos)
  onAddRepos(dto: AddResourceGroupReposRpc, ctx: RequestContext): Promise<ResourceGroupView> {
    return this.groups.addRepos(dto, ctx);
  }

  @RpcHandler(ResourceGroupsRpc.Update)
  onUpdate(dto: UpdateResourceGroupRpc, ctx: RequestContext): Promise<ResourceGroupView> {
    return this.groups.update(dto, ctx);
  }

  @RpcHandler(ResourceGroupsRpc.RemoveUser)
  onRemoveUser(dto: RemoveResourceGroupUserRpc, ctx: RequestContext): Promise<ResourceGroupView> {
    return this.groups.removeUser(dto, ctx);
  }

  @RpcHandler(ResourceGroupsRpc.Get)
  onGet(dto: ResourceGroupRefRpc): Promise<ResourceGroupView> {
    return this.groups.get(dto);
  }
}
