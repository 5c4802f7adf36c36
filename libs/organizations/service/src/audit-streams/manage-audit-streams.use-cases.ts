import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import {
  type AuditStreamDeliveriesView,
  type AuditStreamOrgRpc,
  type AuditStreamRefRpc,
  AuditStreamsRpc,
  type AuditStreamView,
  type ListAuditStreamDeliveriesRpc,
  type SetAuditStreamStateRpc,
} from '@hub/organizations-contract';
import { ORGANIZATIONS_DS } from '../organizations.di';
import { AuditStreamAccess } from './audit-stream-access';
import { toAuditStreamView } from './audit-stream.view';
import { AuditStreamsStore } from './audit-streams.store';
import { AuditStreamNotFoundError } from './audit-streams.errors';
import { RpcHandler } from '@hub/messaging';

/** The organization's streams, oldest first. */
@Injectable()
export class ListAuditStreamsUseCase {
  constructor(@InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource) {}

  @RpcHandler(AuditStreamsRpc.List)
  async execute(dto: AuditStreamOrgRpc): Promise<AuditStreamView[]> {
    return (await AuditStreamsStore.list(this.ds.manager, dto.organizationId)).map(toAuditStreamView);
  }
}

@Injectable()
export class GetAuditStreamUseCase {
  constructor(private readonly access: AuditStreamAccess) {}

  @RpcHandler(AuditStreamsRpc.Get)
  async execute(dto: AuditStreamRefRpc): Promise<AuditStreamView> {
    return toAuditStreamView(await this.access.find(dto));
  }
}

/** Deletes the stream and its delivery log; what it had not sent is not sent. */
@Injectable()
export class DeleteAuditStreamUseCase {
  constructor(@InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource) {}

  @RpcHandler(AuditStreamsRpc.Delete)
  async execute(dto: AuditStreamRefRpc): Promise<{ deleted: true }> {
    if (!(await AuditStreamsStore.remove(this.ds.manager, dto.organizationId, dto.streamId)))
      throw new AuditStreamNotFoundError(dto.streamId);
    return { deleted: true };
  }
}

/** Pause keeps the position (events wait within the retention window); resume sends at once. */
@Injectable()
export class SetAuditStreamStateUseCase {
  constructor(@InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource) {}

  @RpcHandler(AuditStreamsRpc.SetState)
  async execute(dto: SetAuditStreamStateRpc): Promise<AuditStreamView> {
    const row = await AuditStreamsStore.setPaused(
      this.ds.manager,
      dto.organizationId,
      dto.streamId,
      dto.action === 'pause',
    );
    if (!row) throw new AuditStreamNotFoundError(dto.streamId);
    return toAuditStreamView(row);
  }
}

/** The stream's own delivery log, newest first. */
@Injectable()
export class ListAuditStreamDeliveriesUseCase {
  constructor(
    @InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource,
    private readonly access: AuditStreamAccess,
  ) {}

  @RpcHandler(AuditStreamsRpc.ListDeliveries)
  async execute(dto: ListAuditStreamDeliveriesRpc): Promise<AuditStreamDeliveriesView> {
    await this.access.find(dto);
    return { items: await AuditStreamsStore.deliveries(this.ds.manager, dto.streamId, dto.limit) };
  }
}
