import { CreateOrganizationRpc, OrganizationsRpc, type OrganizationView, type RequestContext } from '@hub/contracts';
import { RpcController, RpcHandler } from '@hub/messaging';
import { CreateOrganizationUseCase } from './create-organization.use-case';

@RpcController()
export class OrganizationsHandler {
  constructor(private readonly createOrganization: CreateOrganizationUseCase) {}

  @RpcHandler(OrganizationsRpc.Create)
  onCreate(dto: CreateOrganizationRpc, ctx: RequestContext): Promise<OrganizationView> {
    return this.createOrganization.execute(dto, ctx);
  }
}
