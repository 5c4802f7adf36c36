import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type RequestContext } from '@hub/contracts';
import { type WatchListView } from '@hub/notifications-contract';
import { callerOf } from '../inbox/inbox-filters';
import { NOTIFICATIONS_DS } from '../notifications.di';
import { WatchStore } from './watch.store';

/** The caller's watch list: users, organizations and repositories whose discussions they hear of. */
@Injectable()
export class GetWatchListUseCase {
  constructor(@InjectDataSource(NOTIFICATIONS_DS) private readonly ds: DataSource) {}

  async execute(ctx: RequestContext): Promise<WatchListView> {
    return { watched: await WatchStore.list(this.ds.manager, callerOf(ctx)) };
  }
}
