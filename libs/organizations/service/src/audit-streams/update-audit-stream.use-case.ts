import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { AuditStreamsRpc, type AuditStreamView, type UpdateAuditStreamRpc } from '@hub/organizations-contract';
import { ORGANIZATIONS_DS } from '../organizations.di';
import { AuditStreamAccess } from './audit-stream-access';
import { toAuditStreamView } from './audit-stream.view';
import { AuditStreamNotFoundError } from './audit-streams.errors';
import { AuditStreamsStore } from './audit-streams.store';
import { destinationOf } from './destination';
import { RpcHandler } from '@hub/messaging';

/** Replaces the destination (PUT): credentials left out are kept when the type stays; the position too. */
@Injectable()
export class UpdateAuditStreamUseCase {
  constructor(
    @InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource,
    private readonly access: AuditStreamAccess,
  ) {}

  @RpcHandler(AuditStreamsRpc.Update)
  async execute(dto: UpdateAuditStreamRpc): Promise<AuditStreamView> {
    const current = await this.access.find(dto);
    const d = destinationOf(dto.body, current);
    const sealed = this.access.seal(d, current.type === d.type ? current : undefined);
    const row = await AuditStreamsStore.replace(this.ds.manager, dto.organizationId, dto.streamId, {
      type: d.type,
      settings: d.settings,
      filter: d.filter,
      ...sealed,
    });
    if (!row) throw new AuditStreamNotFoundError(dto.streamId);
    return toAuditStreamView(row);
  }
}
