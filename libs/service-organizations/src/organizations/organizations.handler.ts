import { CreateOrganizationRpc, OrganizationsRpc, type OrganizationView, type RequestContext } from '@hub/contracts';
import { RpcController, RpcHandler, RpcCtx, RpcPayload } from '@hub/messaging';
import { CreateOrganizationUseCase } from './create-organization.use-case';

@RpcController()
export class OrganizationsHandler {
  constructor(private readonly createOrganization: CreateOrganizationUseCase) {}

  @RpcHandler(OrganizationsRpc.Create)
  onCreate(@RpcPayload() dto: CreateOrganizationRpc, @RpcCtx() ctx: RequestContext): Promise<OrganizationView> {
    return this.createOrganization.execute(dto, ctx);
  }
}
