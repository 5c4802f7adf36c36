import { MessagePattern } from '@nestjs/microservices';
import {
  AddMemberRpc, CreateOrganizationRpc, GetAccessRpc, ListForUserRpc, type MemberView, type OrganizationAccess,
  OrganizationRefRpc, OrganizationsRpc, type OrganizationView, type RequestContext, type UserMembership,
} from '@hub/contracts';
import { RpcController, RpcCtx, RpcPayload } from '@hub/messaging';
import { CreateOrganizationUseCase } from './use-cases/create-organization.use-case';
import { MembershipUseCases } from './use-cases/membership.use-cases';

@RpcController()
export class OrganizationsHandler {
  constructor(
    private readonly createOrganization: CreateOrganizationUseCase,
    private readonly membership: MembershipUseCases,
  ) {}

  @MessagePattern(OrganizationsRpc.Create)
  onCreate(@RpcPayload() dto: CreateOrganizationRpc, @RpcCtx() ctx: RequestContext): Promise<OrganizationView> {
    return this.createOrganization.execute(dto, ctx);
  }

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
