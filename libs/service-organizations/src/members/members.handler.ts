import {
  AddMemberRpc,
  ChangeRoleRpc,
  GetAccessRpc,
  MemberRefRpc,
  ListForUserRpc,
  type MemberView,
  type OrganizationAccess,
  OrganizationRefRpc,
  OrganizationsRpc,
  type RequestContext,
  type UserMembership,
} from '@hub/contracts';
import { RpcController, RpcHandler } from '@hub/messaging';
import { MemberAdminUseCases } from './member-admin.use-cases';
import { MembershipUseCases } from './membership.use-cases';

@RpcController()
export class MembersHandler {
  constructor(
    private readonly membership: MembershipUseCases,
    private readonly admin: MemberAdminUseCases,
  ) {}

  @RpcHandler(OrganizationsRpc.AddMember)
  onAddMember(dto: AddMemberRpc, ctx: RequestContext): Promise<MemberView> {
    return this.membership.add(dto, ctx);
  }

  @RpcHandler(OrganizationsRpc.ListMembers)
  onListMembers(dto: OrganizationRefRpc): Promise<MemberView[]> {
    return this.membership.list(dto.organization);
  }

  @RpcHandler(OrganizationsRpc.GetAccess)
  onGetAccess(dto: GetAccessRpc): Promise<OrganizationAccess> {
    return this.membership.access(dto.organization, dto.userId);
  }

  @RpcHandler(OrganizationsRpc.ListForUser)
  onListForUser(dto: ListForUserRpc): Promise<UserMembership[]> {
    return this.membership.listForUser(dto.userId);
  }

  @RpcHandler(OrganizationsRpc.RemoveMember)
  onRemoveMember(dto: MemberRefRpc, ctx: RequestContext): Promise<{ removed: true }> {
    return this.admin.remove(dto, ctx);
  }

  @RpcHandler(OrganizationsRpc.ChangeRole)
  onChangeRole(dto: ChangeRoleRpc, ctx: RequestContext): Promise<MemberView> {
    return this.admin.changeRole(dto, ctx);
  }
}
