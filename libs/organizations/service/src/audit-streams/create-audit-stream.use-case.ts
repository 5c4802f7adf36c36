import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { AuditStreamsRpc, type AuditStreamView, type CreateAuditStreamRpc } from '@hub/organizations-contract';
import { newObjectId } from '@hub/persistence';
import { ORGANIZATIONS_DS } from '../organizations.di';
import { AuditStreamAccess } from './audit-stream-access';
import { toAuditStreamView } from './audit-stream.view';
import { AuditStreamLimitError } from './audit-streams.errors';
import { AuditStreamsStore } from './audit-streams.store';
import { destinationOf } from './destination';
import { RpcHandler } from '@hub/messaging';

/** A new stream, active at once: it sends the events recorded from its creation on (decision 0411). */
@Injectable()
export class CreateAuditStreamUseCase {
  constructor(
    @InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource,
    private readonly access: AuditStreamAccess,
  ) {}

  @RpcHandler(AuditStreamsRpc.Create)
  async execute(dto: CreateAuditStreamRpc): Promise<AuditStreamView> {
    const d = destinationOf(dto.body);
    const sealed = this.access.seal(d);
    const max = this.access.config.HUB_AUDIT_STREAMS_PER_ORG;
    // The count and the insert in one transaction, the organization's streams locked: two creates
    // at once cannot both pass.
    const row = await this.ds.transaction(async (m) => {
      if ((await AuditStreamsStore.lockAndCount(m, dto.organizationId)) >= max) return null;
      return AuditStreamsStore.insert(m, {
        id: newObjectId(),
        organizationId: dto.organizationId,
        type: d.type,
        settings: d.settings,
        filter: d.filter,
        ...sealed,
      });
    });
    if (!row) throw new AuditStreamLimitError(dto.organization, max);
    return toAuditStreamView(row);
  }
}
