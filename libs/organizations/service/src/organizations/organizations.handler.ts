import { AdminNamesQueryDto, type AdminPage, type RequestContext } from '@hub/contracts';
import {
  type AdminOrganizationView,
  CreateOrganizationRpc,
  OrganizationsRpc,
  type OrganizationView,
} from '@hub/organizations-contract';
import { RpcController, RpcHandler } from '@hub/messaging';
import { CreateOrganizationUseCase } from './create-organization.use-case';
import { ListOrganizationsUseCase } from './list-organizations.use-case';

@RpcController()
export class OrganizationsHandler {
  constructor(
    private readonly createOrganization: CreateOrganizationUseCase,
    private readonly listOrganizations: ListOrganizationsUseCase,
  ) {}

  @RpcHandler(OrganizationsRpc.Create)
  onCreate(dto: CreateOrganizationRpc, ctx: RequestContext): Promise<OrganizationView> {
    return this.createOrganization.execute(dto, ctx);
  }

  @RpcHandler(OrganizationsRpc.List)
  onList(dto: AdminNamesQueryDto): Promise<AdminPage<AdminOrganizationView>> {
    return this.listOrganizations.execute(dto);
  }
}
