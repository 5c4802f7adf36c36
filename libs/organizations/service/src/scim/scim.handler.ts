import { type RequestContext } from '@hub/contracts';
import {
  type ScimDeleted,
  type ScimGroupRecord,
  ScimLinkRpc,
  ScimListRpc,
  type ScimPage,
  ScimPatchRpc,
  ScimResourceRpc,
  ScimRpc,
  type ScimUserRecord,
  ScimWriteRpc,
} from '@hub/organizations-contract';
import { RpcController, RpcHandler } from '@hub/messaging';
import { CreateScimGroupUseCase } from './create-scim-group.use-case';
import { CreateScimUserUseCase } from './create-scim-user.use-case';
import { DeleteScimGroupUseCase } from './delete-scim-group.use-case';
import { DeleteScimUserUseCase } from './delete-scim-user.use-case';
import { GetScimGroupUseCase } from './get-scim-group.use-case';
import { GetScimUserUseCase } from './get-scim-user.use-case';
import { LinkScimUserUseCase } from './link-scim-user.use-case';
import { ListScimGroupsUseCase } from './list-scim-groups.use-case';
import { ListScimUsersUseCase } from './list-scim-users.use-case';
import { PatchScimGroupUseCase } from './patch-scim-group.use-case';
import { PatchScimUserUseCase } from './patch-scim-user.use-case';
import { ReplaceScimGroupUseCase } from './replace-scim-group.use-case';
import { ReplaceScimUserUseCase } from './replace-scim-user.use-case';

@RpcController()
export class ScimHandler {
  constructor(
    private readonly listUsers: ListScimUsersUseCase,
    private readonly getUser: GetScimUserUseCase,
    private readonly createUser: CreateScimUserUseCase,
    private readonly replaceUser: ReplaceScimUserUseCase,
    private readonly patchUser: PatchScimUserUseCase,
    private readonly deleteUser: DeleteScimUserUseCase,
    private readonly linkUser: LinkScimUserUseCase,
    private readonly listGroups: ListScimGroupsUseCase,
    private readonly getGroup: GetScimGroupUseCase,
    private readonly createGroup: CreateScimGroupUseCase,
    private readonly replaceGroup: ReplaceScimGroupUseCase,
    private readonly patchGroup: PatchScimGroupUseCase,
    private readonly deleteGroup: DeleteScimGroupUseCase,
  ) {}

  @RpcHandler(ScimRpc.ListUsers)
  onListUsers(dto: ScimListRpc): Promise<ScimPage<ScimUserRecord>> {
    return this.listUsers.execute(dto);
  }

  @RpcHandler(ScimRpc.GetUser)
  onGetUser(dto: ScimResourceRpc): Promise<ScimUserRecord> {
    return this.getUser.execute(dto);
  }

  @RpcHandler(ScimRpc.CreateUser)
  onCreateUser(dto: ScimWriteRpc, ctx: RequestContext): Promise<ScimUserRecord> {
    return this.createUser.execute(dto, ctx);
  }

  @RpcHandler(ScimRpc.ReplaceUser)
  onReplaceUser(dto: ScimWriteRpc, ctx: RequestContext): Promise<ScimUserRecord> {
    return this.replaceUser.execute(dto, ctx);
  }

  @RpcHandler(ScimRpc.PatchUser)
  onPatchUser(dto: ScimPatchRpc, ctx: RequestContext): Promise<ScimUserRecord> {
    return this.patchUser.execute(dto, ctx);
  }

  @RpcHandler(ScimRpc.DeleteUser)
  onDeleteUser(dto: ScimResourceRpc, ctx: RequestContext): Promise<ScimDeleted> {
    return this.deleteUser.execute(dto, ctx);
  }

  @RpcHandler(ScimRpc.LinkUser)
  onLinkUser(dto: ScimLinkRpc, ctx: RequestContext): Promise<ScimUserRecord> {
    return this.linkUser.execute(dto, ctx);
  }

  @RpcHandler(ScimRpc.ListGroups)
  onListGroups(dto: ScimListRpc): Promise<ScimPage<ScimGroupRecord>> {
    return this.listGroups.execute(dto);
  }

  @RpcHandler(ScimRpc.GetGroup)
  onGetGroup(dto: ScimResourceRpc): Promise<ScimGroupRecord> {
    return this.getGroup.execute(dto);
  }

  @RpcHandler(ScimRpc.CreateGroup)
  onCreateGroup(dto: ScimWriteRpc, ctx: RequestContext): Promise<ScimGroupRecord> {
    return this.createGroup.execute(dto, ctx);
  }

  @RpcHandler(ScimRpc.ReplaceGroup)
  onReplaceGroup(dto: ScimWriteRpc, ctx: RequestContext): Promise<ScimGroupRecord> {
    return this.replaceGroup.execute(dto, ctx);
  }

  @RpcHandler(ScimRpc.PatchGroup)
  onPatchGroup(dto: ScimPatchRpc, ctx: RequestContext): Promise<ScimGroupRecord> {
    return this.patchGroup.execute(dto, ctx);
  }

  @RpcHandler(ScimRpc.DeleteGroup)
  onDeleteGroup(dto: ScimResourceRpc, ctx: RequestContext): Promise<ScimDeleted> {
    return this.deleteGroup.execute(dto, ctx);
  }
}
