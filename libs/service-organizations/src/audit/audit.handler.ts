import { type AuditPage, AuditPageRpc, AuditRpc } from '@hub/contracts';
import { RpcController, RpcHandler } from '@hub/messaging';
import { AuditLog } from './audit-log';

@RpcController()
export class AuditHandler {
  constructor(private readonly log: AuditLog) {}

  @RpcHandler(AuditRpc.Page)
  onPage(dto: AuditPageRpc): Promise<AuditPage> {
    return this.log.page(dto);
  }
}
