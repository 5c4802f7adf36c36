import { Injectable } from '@nestjs/common';
import { type EntityManager } from 'typeorm';
import { Outbox } from '@hub/messaging';
import { announceInboxChanges } from '../inbox/inbox-changes';
import { settingOf, type SettingValues } from '../settings/settings.defaults';
import { PrivateRepoReaders } from './private-repo-readers';
import { type ThreadEvent } from './thread-event';
import { ThreadsStore } from './threads.store';

/**
 * One event on a thread, in one transaction: record its id (a replay stops here), update the
 * thread (title, status, who took part, who was mentioned), and give every recipient one
 * notification for the thread, moved to the top and unread. Recipients: those who took part
 * or were mentioned (gated by the participating setting) and watchers of the repo, its owner or
 * the author (gated by web_discussions_watched); never the actor; on a private repo, only those
 * who may read it (PrivateRepoReaders).
 */
@Injectable()
export class ApplyThreadEventUseCase {
  /** The last updatedAt given (ms): events applied in the same millisecond still get distinct, ordered times. */
  private lastStamp = 0;

  constructor(
    private readonly outbox: Outbox,
    private readonly readers: PrivateRepoReaders,
  ) {}

  /** Returns how many users were notified (0 for a replay). */
  async apply(e: ThreadEvent): Promise<number> {
    const [notified] = await this.applyAll([e]);
    return notified ?? 0;
  }

  /** Several events in order, in one transaction (one commit for the lot); how many each notified. */
  applyAll(events: ThreadEvent[]): Promise<number[]> {
    return this.outbox.transaction(async (m) => {
      const recipients: string[][] = [];
      for (const e of events) recipients.push(await this.applyIn(m, e));
      await announceInboxChanges(this.outbox, m, recipients.flat());
      return recipients.map((r) => r.length);
    });
  }

  /** The users it notified (none for a replay). */
  private async applyIn(m: EntityManager, e: ThreadEvent): Promise<string[]> {
    const thread = await this.updateThread(m, e);
    if (!thread) return [];
    const involved = new Set([...thread.participantIds, ...thread.mentionedIds]);
    const audience = await this.audience(m, e, [...involved]);
    const candidates = await this.readers.filter(
      e,
      [...new Set([...involved, ...audience.watchers])].filter((u) => u !== e.actor._id),
    );
    const recipients = candidates
      .filter((u) =>
        settingOf(audience.settings.get(u), involved.has(u) ? e.participatingSetting : 'web_discussions_watched'),
      )
      .sort();
    if (recipients.length === 0) return [];
    await ThreadsStore.notify(m, recipients, e.threadId, this.stamp(), e.discussionEventId.slice(0, 100));
    // The inbox_state triggers count the new rows and move each recipient's version.
    return recipients;
  }

  /** Newest first must mean applied last: a batch applies several events within one millisecond. */
  private stamp(): string {
    this.lastStamp = Math.max(Date.now(), this.lastStamp + 1);
    return new Date(this.lastStamp).toISOString();
  }

  /** Records the event's id and updates the thread in one statement; undefined for a replay (nothing written). */
  private async updateThread(
    m: EntityManager,
    e: ThreadEvent,
  ): Promise<{ participantIds: string[]; mentionedIds: string[] } | undefined> {
    const row = await ThreadsStore.recordEvent(m, e);
    if (!row) return undefined;
    const participants = row.participants.filter((p) => p._id !== e.actor._id);
    // The actor took part: listed first from now on, with their current name and avatar.
    participants.unshift({ _id: e.actor._id, avatar: e.actor.avatar, user: e.actor.user });
    const participantIds = participants.map((p) => p._id);
    const mentionedIds = [...new Set([...row.mentioned_ids.map((x) => x.trim()), ...e.mentions.map((u) => u._id)])];
    await ThreadsStore.setPeople(m, e.threadId, participants, participantIds, mentionedIds);
    return { participantIds, mentionedIds };
  }

  /** Who watches what the event is about, and the settings of them and of the thread's people: one query. */
  private async audience(
    m: EntityManager,
    e: ThreadEvent,
    involved: string[],
  ): Promise<{ watchers: string[]; settings: Map<string, SettingValues> }> {
    const rows = await ThreadsStore.audience(m, e.watchTargets, involved);
    const settings = new Map<string, SettingValues>();
    for (const r of rows) if (r.values) settings.set(r.user_id, r.values);
    return { watchers: rows.filter((r) => r.watcher).map((r) => r.user_id), settings };
  }
}
