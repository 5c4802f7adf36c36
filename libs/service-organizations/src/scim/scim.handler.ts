import {
  type RequestContext,
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
} from '@hub/contracts';
import { RpcController, RpcHandler } from '@hub/messaging';
import { ScimGroupsUseCases } from './scim-groups.use-cases';
import { ScimUsersUseCases } from './scim-users.use-cases';

@RpcController()
export class ScimHandler {
  constructor(
    private readonly users: ScimUsersUseCases,
    private readonly groups: ScimGroupsUseCases,
  ) {}

  @RpcHandler(ScimRpc.ListUsers)
  onListUsers(dto: ScimListRpc): Promise<ScimPage<ScimUserRecord>> {
    return this.users.list(dto);
  }

  @RpcHandler(ScimRpc.GetUser)
  onGetUser(dto: ScimResourceRpc): Promise<ScimUserRecord> {
    return this.users.get(dto);
  }

  @RpcHandler(ScimRpc.CreateUser)
  onCreateUser(dto: ScimWriteRpc, ctx: RequestContext): Promise<ScimUserRecord> {
    return this.users.create(dto, ctx);
  }

  @RpcHandler(ScimRpc.ReplaceUser)
  onReplaceUser(dto: ScimWriteRpc, ctx: RequestContext): Promise<ScimUserRecord> {
    return this.users.replace(dto, ctx);
  }

  @RpcHandler(ScimRpc.PatchUser)
  onPatchUser(dto: ScimPatchRpc, ctx: RequestContext): Promise<ScimUserRecord> {
    return this.users.patch(dto, ctx);
  }

  @RpcHandler(ScimRpc.DeleteUser)
  onDeleteUser(dto: ScimResourceRpc, ctx: RequestContext): Promise<ScimDeleted> {
    return this.users.delete(dto, ctx);
  }

  @RpcHandler(ScimRpc.LinkUser)
  onLinkUser(dto: ScimLinkRpc, ctx: RequestContext): Promise<ScimUserRecord> {
    return this.users.link(dto, ctx);
  }

  @RpcHandler(ScimRpc.ListGroups)
  onListGroups(dto: ScimListRpc): Promise<ScimPage<ScimGroupRecord>> {
    return this.groups.list(dto);
  }

  @RpcHandler(ScimRpc.GetGroup)
  onGetGroup(dto: ScimResourceRpc): Promise<ScimGroupRecord> {
    return this.groups.get(dto);
  }

  @RpcHandler(ScimRpc.CreateGroup)
  onCreateGroup(dto: ScimWriteRpc, ctx: RequestContext): Promise<ScimGroupRecord> {
    return this.groups.create(dto, ctx);
  }

  @RpcHandler(ScimRpc.ReplaceGroup)
  onReplaceGroup(dto: ScimWriteRpc, ctx: RequestContext): Promise<ScimGroupRecord> {
    return this.groups.replace(dto, ctx);
  }

  @RpcHandler(ScimRpc.PatchGroup)
  onPatchGroup(dto: ScimPatchRpc, ctx: RequestContext): Promise<ScimGroupRecord> {
    return this.groups.patch(dto, ctx);
  }

  @RpcHandler(ScimRpc.DeleteGroup)
  onDeleteGroup(dto: ScimResourceRpc, ctx: RequestContext): Promise<ScimDeleted> {
    return this.groups.delete(dto, ctx);
  }
}
