import { MessagePattern } from '@nestjs/microservices';
import {
  AddMemberRpc, GetAccessRpc, ListForUserRpc, type MemberView, type OrganizationAccess, OrganizationRefRpc,
  OrganizationsRpc, type RequestContext, type UserMembership,
} from '@hub/contracts';
import { RpcController, RpcCtx, RpcPayload } from '@hub/messaging';
import { MembershipUseCases } from './membership.use-cases';

@RpcController()
export class MembersHandler {
  constructor(private readonly membership: MembershipUseCases) {}

  @MessagePattern(OrganizationsRpc.AddMember)
  onAddMember(@RpcPayload() dto: AddMemberRpc, @RpcCtx() ctx: RequestContext): Promise<MemberView> {
    return this.membership.add(dto, ctx);
  }

  @MessagePattern(OrganizationsRpc.ListMembers)
  onListMembers(@RpcPayload() dto: OrganizationRefRpc): Promise<MemberView[]> {
    return this.membership.list(dto.organization);
  }

  @MessagePattern(OrganizationsRpc.GetAccess)
  onGetAccess(@RpcPayload() dto: GetAccessRpc): Promise<OrganizationAccess> {
    return this.membership.access(dto.organization, dto.userId);
  }

  @MessagePattern(OrganizationsRpc.ListForUser)
  onListForUser(@RpcPayload() dto: ListForUserRpc): Promise<UserMembership[]> {
    return this.membership.listForUser(dto.userId);
  }
}
