import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type RequestContext } from '@hub/contracts';
import {
  MAX_WATCHED_ITEMS,
  type UpdateWatchDto,
  type WatchListView,
  NotificationsRpc,
} from '@hub/notifications-contract';
import { callerOf } from '../inbox/caller';
import { NOTIFICATIONS_DS } from '../notifications.di';
import { TooManyWatchedError } from './watch.errors';
import { WatchStore } from './watch.store';
import { RpcHandler } from '@hub/messaging';

/** Deletes first, then adds (an item in both lists ends up watched); adding twice is a no-op. */
@Injectable()
export class UpdateWatchListUseCase {
  constructor(@InjectDataSource(NOTIFICATIONS_DS) private readonly ds: DataSource) {}

  @RpcHandler(NotificationsRpc.UpdateWatch)
  async execute(dto: UpdateWatchDto, ctx: RequestContext): Promise<WatchListView> {
    const userId = callerOf(ctx);
    await this.ds.transaction(async (m) => {
      await WatchStore.remove(m, userId, dto.delete ?? []);
      const add = dto.add ?? [];
      if (add.length === 0) return;
      await WatchStore.add(m, userId, add);
      if ((await WatchStore.count(m, userId)) > MAX_WATCHED_ITEMS) throw new TooManyWatchedError(MAX_WATCHED_ITEMS);
    });
    return { watched: await WatchStore.list(this.ds.manager, userId) };
  }
}
