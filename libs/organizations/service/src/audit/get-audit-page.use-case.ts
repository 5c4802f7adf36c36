import { Injectable } from '@nestjs/common';
import { type AuditPage, type AuditPageRpc, AuditRpc } from '@hub/organizations-contract';
import { AuditLog } from './audit-log';
import { RpcHandler } from '@hub/messaging';

/**
 * One export page of an organization's audit log (spec 2.9, decision 0410). AuditLog cuts the
 * page under the NATS message limit; its statements are AuditLogStore's, beside the measurements
 * that shaped them.
 */
@Injectable()
export class GetAuditPageUseCase {
  constructor(private readonly log: AuditLog) {}

  @RpcHandler(AuditRpc.Page)
  execute(dto: AuditPageRpc): Promise<AuditPage> {
    return this.log.page(dto);
  }
}
