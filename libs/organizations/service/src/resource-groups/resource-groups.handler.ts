import { type RequestContext } from '@hub/contracts';
import {
  AddResourceGroupReposRpc,
  AddResourceGroupUsersRpc,
  CreateResourceGroupRpc,
  RemoveResourceGroupUserRpc,
  ResourceGroupRefRpc,
  ResourceGroupsRpc,
  type ResourceGroupView,
  UpdateResourceGroupRpc,
} from '@hub/organizations-contract';
import { RpcController, RpcHandler } from '@hub/messaging';
import { AddResourceGroupReposUseCase } from './add-resource-group-repos.use-case';
import { AddResourceGroupUsersUseCase } from './add-resource-group-users.use-case';
import { CreateResourceGroupUseCase } from './create-resource-group.use-case';
import { GetResourceGroupUseCase } from './get-resource-group.use-case';
import { RemoveResourceGroupUserUseCase } from './remove-resource-group-user.use-case';
import { UpdateResourceGroupUseCase } from './update-resource-group.use-case';

@RpcController()
export class ResourceGroupsHandler {
  constructor(
    private readonly createGroup: CreateResourceGroupUseCase,
    private readonly addUsers: AddResourceGroupUsersUseCase,
    private readonly addRepos: AddResourceGroupReposUseCase,
    private readonly updateGroup: UpdateResourceGroupUseCase,
    private readonly removeUser: RemoveResourceGroupUserUseCase,
    private readonly getGroup: GetResourceGroupUseCase,
  ) {}

  @RpcHandler(ResourceGroupsRpc.Create)
  onCreate(dto: CreateResourceGroupRpc, ctx: RequestContext): Promise<ResourceGroupView> {
    return this.createGroup.execute(dto, ctx);
  }

  @RpcHandler(ResourceGroupsRpc.AddUsers)
  onAddUsers(dto: AddResourceGroupUsersRpc, ctx: RequestContext): Promise<ResourceGroupView> {
    return this.addUsers.execute(dto, ctx);
  }

  @RpcHandler(ResourceGroupsRpc.AddRepos)
  onAddRepos(dto: AddResourceGroupReposRpc, ctx: RequestContext): Promise<ResourceGroupView> {
    return this.addRepos.execute(dto, ctx);
  }

  @RpcHandler(ResourceGroupsRpc.Update)
  onUpdate(dto: UpdateResourceGroupRpc, ctx: RequestContext): Promise<ResourceGroupView> {
    return this.updateGroup.execute(dto, ctx);
  }

  @RpcHandler(ResourceGroupsRpc.RemoveUser)
  onRemoveUser(dto: RemoveResourceGroupUserRpc, ctx: RequestContext): Promise<ResourceGroupView> {
    return this.removeUser.execute(dto, ctx);
  }

  @RpcHandler(ResourceGroupsRpc.Get)
  onGet(dto: ResourceGroupRefRpc): Promise<ResourceGroupView> {
    return this.getGroup.execute(dto);
  }
}
