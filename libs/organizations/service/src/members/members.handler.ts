import { type RequestContext } from '@hub/contracts';
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
  type UserMembership,
} from '@hub/organizations-contract';
import { RpcController, RpcHandler } from '@hub/messaging';
import { AddMemberUseCase } from './add-member.use-case';
import { ChangeMemberRoleUseCase } from './change-member-role.use-case';
import { GetMemberAccessUseCase } from './get-member-access.use-case';
import { ListMembersUseCase } from './list-members.use-case';
import { ListUserMembershipsUseCase } from './list-user-memberships.use-case';
import { RemoveMemberUseCase } from './remove-member.use-case';

@RpcController()
export class MembersHandler {
  constructor(
    private readonly addMember: AddMemberUseCase,
    private readonly listMembers: ListMembersUseCase,
    private readonly getAccess: GetMemberAccessUseCase,
    private readonly listUserMemberships: ListUserMembershipsUseCase,
    private readonly removeMember: RemoveMemberUseCase,
    private readonly changeMemberRole: ChangeMemberRoleUseCase,
  ) {}

  @RpcHandler(OrganizationsRpc.AddMember)
  onAddMember(dto: AddMemberRpc, ctx: RequestContext): Promise<MemberView> {
    return this.addMember.execute(dto, ctx);
  }

  @RpcHandler(OrganizationsRpc.ListMembers)
  onListMembers(dto: OrganizationRefRpc): Promise<MemberView[]> {
    return this.listMembers.execute(dto.organization);
  }

  @RpcHandler(OrganizationsRpc.GetAccess)
  onGetAccess(dto: GetAccessRpc): Promise<OrganizationAccess> {
    return this.getAccess.execute(dto.organization, dto.userId);
  }

  @RpcHandler(OrganizationsRpc.ListForUser)
  onListForUser(dto: ListForUserRpc): Promise<UserMembership[]> {
    return this.listUserMemberships.execute(dto.userId);
  }

  @RpcHandler(OrganizationsRpc.RemoveMember)
  onRemoveMember(dto: MemberRefRpc, ctx: RequestContext): Promise<{ removed: true }> {
    return this.removeMember.execute(dto, ctx);
  }

  @RpcHandler(OrganizationsRpc.ChangeRole)
  onChangeRole(dto: ChangeRoleRpc, ctx: RequestContext): Promise<MemberView> {
    return this.changeMemberRole.execute(dto, ctx);
  }
}
