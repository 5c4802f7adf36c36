import { Injectable } from '@nestjs/common';
import { type AuditStreamView, type UpdateAuditStreamRpc } from '@hub/organizations-contract';
import { AuditStreamAccess } from './audit-stream-access';
import { toAuditStreamView } from './audit-stream.view';
import { AuditStreamNotFoundError } from './audit-streams.errors';
import { destinationOf } from './destination';

/** Replaces the destination (PUT): credentials left out are kept when the type stays; the position too. */
@Injectable()
export class UpdateAuditStreamUseCase {
  constructor(private readonly access: AuditStreamAccess) {}

  async execute(dto: UpdateAuditStreamRpc): Promise<AuditStreamView> {
    const current = await this.access.find(dto);
    const d = destinationOf(dto.body, current);
    const sealed = this.access.seal(d, current.type === d.type ? current : undefined);
    const row = await this.access.store.replace(dto.organizationId, dto.streamId, {
      type: d.type,
      settings: d.settings,
      filter: d.filter,
      ...sealed,
    });
    if (!row) throw new AuditStreamNotFoundError(dto.streamId);
    return toAuditStreamView(row);
  }
}
