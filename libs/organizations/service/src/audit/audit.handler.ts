import { type AuditPage, AuditPageRpc, AuditRpc } from '@hub/organizations-contract';
import { RpcController, RpcHandler } from '@hub/messaging';
import { GetAuditPageUseCase } from './get-audit-page.use-case';

@RpcController()
export class AuditHandler {
  constructor(private readonly getAuditPage: GetAuditPageUseCase) {}

  @RpcHandler(AuditRpc.Page)
  onPage(dto: AuditPageRpc): Promise<AuditPage> {
    return this.getAuditPage.execute(dto);
  }
}
