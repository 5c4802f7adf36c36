import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type AuditStreamRefRpc, AuditStreamsRpc, type AuditStreamTestView } from '@hub/organizations-contract';
import { newObjectId } from '@hub/persistence';
import { ORGANIZATIONS_DS } from '../organizations.di';
import { AuditStreamAccess } from './audit-stream-access';
import { AuditStreamsStore } from './audit-streams.store';
import { AuditSenders } from './destinations/audit-senders';
import { RpcHandler } from '@hub/messaging';

/**
 * Sends one synthetic record (type `audit_stream.test`, never stored in the audit log) and answers
 * with the destination's reply; the attempt goes to the stream's delivery log as a `test`.
 */
@Injectable()
export class TestAuditStreamUseCase {
  constructor(
    @InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource,
    private readonly access: AuditStreamAccess,
    private readonly senders: AuditSenders,
  ) {}

  @RpcHandler(AuditStreamsRpc.Test)
  async execute(dto: AuditStreamRefRpc): Promise<AuditStreamTestView> {
    const row = await this.access.find(dto);
    const id = newObjectId();
    const createdAt = new Date().toISOString();
    const doc = JSON.stringify({
      _id: id,
      createdAt,
      type: 'audit_stream.test',
      message: `Test record of audit stream ${row.id} of ${dto.organization}`,
      data: { streamId: row.id, test: true },
    });
    const r = await this.senders.send(this.access.open(row, dto.organization), [{ id, createdAt, doc }], `test-${id}`);
    await AuditStreamsStore.logDelivery(this.ds.manager, row.id, {
      kind: 'test',
      records: 1,
      firstEventId: id,
      lastEventId: id,
      ok: r.ok,
      status: r.status,
      error: r.error,
      latencyMs: r.latencyMs,
    });
    return { ok: r.ok, status: r.status, body: r.body, error: r.error, latencyMs: r.latencyMs };
  }
}
