import { Injectable } from '@nestjs/common';
import {
  type AuditStreamDeliveriesView,
  type AuditStreamOrgRpc,
  type AuditStreamRefRpc,
  type AuditStreamView,
  type ListAuditStreamDeliveriesRpc,
  type SetAuditStreamStateRpc,
} from '@hub/organizations-contract';
import { AuditStreamAccess } from './audit-stream-access';
import { toAuditStreamView } from './audit-stream.view';
import { AuditStreamNotFoundError } from './audit-streams.errors';

/** The organization's streams, oldest first. */
@Injectable()
export class ListAuditStreamsUseCase {
  constructor(private readonly access: AuditStreamAccess) {}

  async execute(dto: AuditStreamOrgRpc): Promise<AuditStreamView[]> {
    return (await this.access.store.list(dto.organizationId)).map(toAuditStreamView);
  }
}

@Injectable()
export class GetAuditStreamUseCase {
  constructor(private readonly access: AuditStreamAccess) {}

  async execute(dto: AuditStreamRefRpc): Promise<AuditStreamView> {
    return toAuditStreamView(await this.access.find(dto));
  }
}

/** Deletes the stream and its delivery log; what it had not sent is not sent. */
@Injectable()
export class DeleteAuditStreamUseCase {
  constructor(private readonly access: AuditStreamAccess) {}

  async execute(dto: AuditStreamRefRpc): Promise<{ deleted: true }> {
    if (!(await this.access.store.remove(dto.organizationId, dto.streamId)))
      throw new AuditStreamNotFoundError(dto.streamId);
    return { deleted: true };
  }
}

/** Pause keeps the position (events wait within the retention window); resume sends at once. */
@Injectable()
export class SetAuditStreamStateUseCase {
  constructor(private readonly access: AuditStreamAccess) {}

  async execute(dto: SetAuditStreamStateRpc): Promise<AuditStreamView> {
    const row = await this.access.store.setPaused(dto.organizationId, dto.streamId, dto.action === 'pause');
    if (!row) throw new AuditStreamNotFoundError(dto.streamId);
    return toAuditStreamView(row);
  }
}

/** The stream's own delivery log, newest first. */
@Injectable()
export class ListAuditStreamDeliveriesUseCase {
  constructor(private readonly access: AuditStreamAccess) {}

  async execute(dto: ListAuditStreamDeliveriesRpc): Promise<AuditStreamDeliveriesView> {
    await this.access.find(dto);
    return { items: await this.access.store.deliveries(dto.streamId, dto.limit) };
  }
}
