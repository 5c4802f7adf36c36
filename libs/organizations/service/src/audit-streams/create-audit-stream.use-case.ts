import { Injectable } from '@nestjs/common';
import { type AuditStreamView, type CreateAuditStreamRpc } from '@hub/organizations-contract';
import { newObjectId } from '@hub/persistence';
import { AuditStreamAccess } from './audit-stream-access';
import { toAuditStreamView } from './audit-stream.view';
import { AuditStreamLimitError } from './audit-streams.errors';
import { destinationOf } from './destination';

/** A new stream, active at once: it sends the events recorded from its creation on (decision 0411). */
@Injectable()
export class CreateAuditStreamUseCase {
  constructor(private readonly access: AuditStreamAccess) {}

  async execute(dto: CreateAuditStreamRpc): Promise<AuditStreamView> {
    const d = destinationOf(dto.body);
    const sealed = this.access.seal(d);
    const max = this.access.config.HUB_AUDIT_STREAMS_PER_ORG;
    const row = await this.access.store.insertUnder(
      {
        id: newObjectId(),
        organizationId: dto.organizationId,
        type: d.type,
        settings: d.settings,
        filter: d.filter,
        ...sealed,
      },
      max,
    );
    if (!row) throw new AuditStreamLimitError(dto.organization, max);
    return toAuditStreamView(row);
  }
}
