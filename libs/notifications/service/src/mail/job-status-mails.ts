import { type DataSource } from 'typeorm';
import { type RequestContext } from '@hub/contracts';
import { type UserView } from '@hub/credentials-contract';
import { type JobStatusEvent } from '@hub/jobs-contract';
import { type OutboxMailer } from '@hub/messaging';
import { InsertBatcher, newObjectId } from '@hub/persistence';
import { settingOf } from '../settings/settings.defaults';
import { SettingsStore } from '../settings/settings.store';
import { jobStatusMail } from './mail-templates';

/** A job's end to mail to the user who started it: the event, its once-only key, the context of its lookups. */
export interface JobEnd {
  event: JobStatusEvent;
  key: string;
  ctx: RequestContext;
}

/** The user who started the job; an organization's job mails whoever started it, never the org. */
const starter = (e: JobEnd): string => e.event.createdByName ?? e.event.namespace;

/** Job ends written together at most (and so in flight on the bus at once). */
export const JOB_MAILS_PER_BATCH = 64;
/** How long the first end of a batch waits for others: a mail is not late for it. */
const GATHER_MS = 50;

/**
 * The mails of job ends, in batches (issue 41): a sweep of jobs ends in a burst, and each end cost
 * three round trips (its user's setting, the user, the mail). A batch costs one statement for the
 * settings, one lookup per distinct user and one statement for the mails. Each end settles with
 * its batch, so the bus acks only what is written; an end whose user cannot be found fails alone.
 */
export class JobStatusMails {
  private readonly batches = new InsertBatcher<JobEnd>((ends) => this.write(ends), JOB_MAILS_PER_BATCH, GATHER_MS);

  constructor(
    private readonly ds: DataSource,
    private readonly mailer: OutboxMailer,
    private readonly user: (name: string, ctx: RequestContext) => Promise<UserView>,
    private readonly publicUrl: string,
  ) {}

  /** Settles once the end's mail is written, or once it is clear none is due. */
  add(end: JobEnd): Promise<void> {
    return this.batches.add(end);
  }

  private async write(ends: JobEnd[]): Promise<(Error | undefined)[]> {
    // An end that carries its user's id has the setting read first: no user lookup when it is off.
    const known = await this.jobStatusOn(ends.flatMap((e) => (e.event.createdById ? [e.event.createdById] : [])));
    const wanted = ends.filter((e) => !e.event.createdById || known.get(e.event.createdById));
    // One lookup per user who started a job of the batch; a user not found fails that user's ends alone.
    const lookups = new Map<string, Promise<UserView | Error>>();
    for (const e of wanted)
      if (!lookups.has(starter(e)))
        lookups.set(
          starter(e),
          this.user(starter(e), e.ctx).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err)))),
        );
    const looked = await Promise.all(wanted.map(async (e) => [e, await lookups.get(starter(e))] as const));
    const errors = new Map(looked.flatMap(([e, u]) => (u instanceof Error ? [[e, u] as const] : [])));
    const found = looked.flatMap(([e, u]) => (u instanceof Error || !u ? [] : [[e, u] as const]));
    const unknown = found.flatMap(([e, u]) => (e.event.createdById ? [] : [u.id]));
    const later = await this.jobStatusOn(unknown);
    const mailed = found.filter(([e, u]) => e.event.createdById || later.get(u.id));
    await this.mailer.enqueueEachOnce(
      'notifications.applied_events',
      mailed.map(([e, u]) => ({
        key: e.key.slice(0, 140),
        mails: [{ id: newObjectId(), recipient: u.email, ...jobStatusMail(e.event, this.publicUrl) }],
      })),
    );
    return ends.map((e) => errors.get(e));
  }

  /** Whether job_status is on, per user id (its default where nothing is stored). */
  private async jobStatusOn(userIds: string[]): Promise<Map<string, boolean>> {
    const stored = await SettingsStore.valuesOf(this.ds.manager, userIds);
    return new Map(userIds.map((id) => [id, settingOf(stored.get(id), 'job_status')]));
  }
}
