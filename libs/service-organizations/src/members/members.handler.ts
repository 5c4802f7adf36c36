import {
  AddMemberRpc, GetAccessRpc, ListForUserRpc, type MemberView, type OrganizationAccess, OrganizationRefRpc,
  OrganizationsRpc, type RequestContext, type UserMembership,
} from '@hub/contracts';
import { RpcController, RpcHandler, RpcCtx, RpcPayload } from '@hub/messaging';
import { MembershipUseCases } from './membership.use-cases';

@RpcController()
export class MembersHandler {
  constructor(private readonly membership: MembershipUseCases) {}

  @RpcHandler(OrganizationsRpc.AddMember)
  onAddMember(@RpcPayload() dto: AddMemberRpc, @RpcCtx() ctx: RequestContext): Promise<MemberView> {
    return this.membership.add(dto, ctx);
  }

  @RpcHandler(OrganizationsRpc.ListMembers)
  onListMembers(@RpcPayload() dto: OrganizationRefRpc): Promise<MemberView[]> {
    return this.membership.list(dto.organization);
  }

  @RpcHandler(OrganizationsRpc.GetAccess)
  onGetAccess(@RpcPayload() dto: GetAccessRpc): Promise<OrganizationAccess> {
    return this.membership.access(dto.organization, dto.userId);
  }

  @RpcHandler(OrganizationsRpc.ListForUser)
  onListForUser(@RpcPayload() dto: ListForUserRpc): Promise<UserMembership[]> {
    return this.membership.listForUser(dto.userId);
  }
}
