import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type RequestContext } from '@hub/contracts';
import { NotificationsRpc, type OwnSettingsRpc, type WatchListView } from '@hub/notifications-contract';
import { callerOf } from '../inbox/caller';
import { NOTIFICATIONS_DS } from '../notifications.di';
import { WatchStore } from './watch.store';
import { RpcHandler } from '@hub/messaging';

/** The caller's watch list: users, organizations and repositories whose discussions they hear of. */
@Injectable()
export class GetWatchListUseCase {
  constructor(@InjectDataSource(NOTIFICATIONS_DS) private readonly ds: DataSource) {}

  @RpcHandler(NotificationsRpc.GetWatch)
  async execute(_dto: OwnSettingsRpc, ctx: RequestContext): Promise<WatchListView> {
    return { watched: await WatchStore.list(this.ds.manager, callerOf(ctx)) };
  }
}
