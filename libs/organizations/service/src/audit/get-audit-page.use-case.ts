import { Injectable } from '@nestjs/common';
import { type AuditPage, type AuditPageRpc } from '@hub/organizations-contract';
import { AuditLog } from './audit-log';

/**
 * One export page of an organization's audit log (spec 2.9, decision 0410). AuditLog is the
 * feature's store: its statements and the page cut under the NATS message limit live there, beside
 * the measurements that shaped them.
 */
@Injectable()
export class GetAuditPageUseCase {
  constructor(private readonly log: AuditLog) {}

  execute(dto: AuditPageRpc): Promise<AuditPage> {
    return this.log.page(dto);
  }
}
