import {
  AdminNamesQueryDto,
  type AdminOrganizationView,
  type AdminPage,
  CreateOrganizationRpc,
  OrganizationsRpc,
  type OrganizationView,
  type RequestContext,
} from '@hub/contracts';
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
