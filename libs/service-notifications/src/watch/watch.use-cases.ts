import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import {
  MAX_WATCHED_ITEMS,
  type RequestContext,
  type UpdateWatchDto,
  type WatchItem,
  type WatchListView,
} from '@hub/contracts';
import { callerOf } from '../inbox/inbox-filters';
import { NOTIFICATIONS_DS } from '../notifications.tokens';
import { TooManyWatchedError } from './watch.errors';

/** A user's watch list: users, organizations and repositories whose discussions they hear of. */
@Injectable()
export class WatchUseCases {
  constructor(@InjectDataSource(NOTIFICATIONS_DS) private readonly ds: DataSource) {}

  async get(ctx: RequestContext): Promise<WatchListView> {
    const rows: WatchItem[] = await this.ds.query(
      'SELECT target AS id, type FROM notifications.watches WHERE user_id = $1 ORDER BY created_at, type, target',
      [callerOf(ctx)],
    );
    return { watched: rows };
  }

  /** Deletes first, then adds (an item in both lists ends up watched); adding twice is a no-op. */
  async update(dto: UpdateWatchDto, ctx: RequestContext): Promise<WatchListView> {
    const userId = callerOf(ctx);
    await this.ds.transaction(async (m) => {
      for (const w of dto.delete ?? []) {
        await m.query(
          'DELETE FROM notifications.watches WHERE user_id = $1 AND type = $2 AND lower(target) = lower($3)',
          [userId, w.type, w.id],
        );
      }
      const add = dto.add ?? [];
      if (add.length === 0) return;
      await m.query(
        `INSERT INTO notifications.watches (user_id, type, target)
         SELECT $1, x.type, x.target FROM unnest($2::text[], $3::text[]) AS x(type, target)
         WHERE NOT EXISTS (SELECT 1 FROM notifications.watches w WHERE w.user_id = $1 AND w.type = x.type AND lower(w.target) = lower(x.target))
         ON CONFLICT DO NOTHING`,
        [userId, add.map((w) => w.type), add.map((w) => w.id)],
      );
      const [{ n }] = (await m.query('SELECT count(*)::int AS n FROM notifications.watches WHERE user_id = $1', [
        userId,
      ])) as [{ n: number }];
      if (n > MAX_WATCHED_ITEMS) throw new TooManyWatchedError(MAX_WATCHED_ITEMS);
    });
    return this.get(ctx);
  }
}
