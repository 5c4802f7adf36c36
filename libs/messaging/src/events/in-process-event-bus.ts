import { type EventDescriptor, type EventSource, type PayloadClass, subjectFilter } from '@hub/contracts';
import {
  type ConsumerLag,
  EventBus,
  type DurableConsumerOptions,
  type OutgoingEvent,
  type PublishedInOrder,
  type PublishOptions,
  type Unsubscribe,
} from './event-bus';
import { parseCheckedPayload, parseEventPayload } from './payload-validation';
import { BusStore, type BusStoreOptions } from './store/bus-store';
import { DurableGroup } from './store/durable-group';
import { subjectMatches } from './subject-match';
import { currentTraceparent } from '../tracing/trace-context';

const MAX_REMEMBERED_TRACES = 10_000;
/** Messages whose publisher's validation is remembered (`checked`): past that many, consumers validate again. */
const MAX_REMEMBERED_CHECKS = 4096;

/** What a publisher of this process validated a message's JSON against (decision 0512). */
interface Checked {
  text: string;
  classes: readonly PayloadClass<unknown>[];
}

interface Listener {
  pattern: string;
  deliver: (text: string, subject: string, msgId?: string) => void;
}

const PRUNE_EVERY_MS = 3600_000;
/** The bus tables' VACUUM, where nothing else runs one (a Postgres with autovacuum off): a minute after start, then every 10. */
const VACUUM_FIRST_MS = 60_000;
const VACUUM_EVERY_MS = 600_000;

/**
 * The all-in-one stand-in for JetStream, kept in the hub's own database (schema `bus`):
 * `publish` resolves once the event is stored (deduplicated by msgId), durable consumers keep
 * their position and unacknowledged messages across a restart or a kill -9, and `listen` is an
 * in-memory fan-out as a plain NATS subscription is. Messages travel as JSON text, so handlers
 * see exactly what NATS would give them. One process owns the database (decision 0007).
 */
export class InProcessEventBus extends EventBus {
  private readonly listeners = new Set<Listener>();
  private readonly groups = new Map<string, DurableGroup>();
  private readonly pruner: NodeJS.Timeout;
  private vacuumer: NodeJS.Timeout | undefined;
  private closed = false;
  /**
   * The traceparent of recent events by msgId, kept in memory only (the store has no headers):
   * the all-in-one hub's traces cross its bus, not a restart (decision 0504). Empty when tracing is off.
   */
  private readonly traces = new Map<string, string>();
  /**
   * The classes a message's publisher validated it against, by msgId, in memory only (decision
   * 0512): a consumer of one of them gets the message without validating it again. After a
   * restart, or past MAX_REMEMBERED_CHECKS messages, it validates as every consumer does.
   */
  private readonly checks = new Map<string, Checked>();

  constructor(private readonly store: BusStore) {
    super();
    this.pruner = setInterval(
      () => this.store.prune().catch((err: unknown) => this.logger.warn({ err }, 'pruning the bus failed')),
      PRUNE_EVERY_MS,
    );
    this.pruner.unref();
    this.scheduleVacuum(VACUUM_FIRST_MS);
  }

  /**
   * The in-process bus keeps its own tables vacuumed when nothing else does, as every service
   * does its schema (ServiceVacuum in @hub/persistence; decision 0011).
   */
  private scheduleVacuum(ms: number): void {
    this.vacuumer = setTimeout(() => {
      const started = Date.now();
      this.store
        .vacuumIfNobodyDoes()
        .then((tables) => {
          if (tables.length > 0)
            this.logger.log(
              { tables, ms: Date.now() - started },
              `vacuumed ${tables.length} bus tables (nothing else vacuums this database)`,
            );
        })
        .catch((err: unknown) => this.logger.warn({ err }, 'vacuuming the database failed'))
        .finally(() => {
          if (!this.closed) this.scheduleVacuum(VACUUM_EVERY_MS);
        });
    }, ms);
    this.vacuumer.unref();
  }

  static async open(options: BusStoreOptions): Promise<InProcessEventBus> {
    return new InProcessEventBus(await BusStore.open(options));
  }

  async publish<T>(event: EventDescriptor<T>, payload: T, options?: PublishOptions): Promise<void> {
    const subject = event.subject;
    const text = JSON.stringify(payload);
    this.rememberTrace(options?.msgId);
    this.rememberChecks(options?.msgId, text, options?.checked);
    if (!(await this.store.append(subject, options?.msgId, text))) return;
    this.stored([{ subject, msgId: options?.msgId, payload: text }]);
  }

  /** The whole batch in one statement, all or none (the outbox relay's batches: one append, one pass per consumer). */
  override async publishInOrder(events: OutgoingEvent[]): Promise<PublishedInOrder> {
    const appends = events.map((e) => {
      this.rememberTrace(e.msgId);
      const text = JSON.stringify(e.payload);
      this.rememberChecks(e.msgId, text, e.checked);
      return { subject: e.event.subject, msgId: e.msgId, payload: text };
    });
    let stored: boolean[];
    try {
      stored = await this.store.appendAll(appends);
    } catch (error) {
      return { published: 0, error };
    }
    this.stored(appends.filter((_, i) => stored[i]));
    return { published: events.length };
  }

  private rememberTrace(msgId: string | undefined): void {
    const traceparent = msgId ? currentTraceparent() : undefined;
    if (!traceparent || !msgId) return;
    this.traces.set(msgId, traceparent);
    if (this.traces.size > MAX_REMEMBERED_TRACES) this.traces.delete(this.traces.keys().next().value as string);
  }

  /**
   * Kept before the append: a consumer may read the message before `publish` resumes. A repeat
   * of the msgId that the store drops leaves the first text stored, which a different text here
   * does not match (`isChecked` compares them).
   */
  private rememberChecks(
    msgId: string | undefined,
    text: string,
    classes: readonly PayloadClass<unknown>[] | undefined,
  ): void {
    if (!msgId || !classes || classes.length === 0) return;
    this.checks.delete(msgId);
    this.checks.set(msgId, { text, classes });
    if (this.checks.size > MAX_REMEMBERED_CHECKS) this.checks.delete(this.checks.keys().next().value as string);
  }

  /** Whether this process's publisher validated exactly this text against `cls` (decision 0512). */
  private isChecked(msgId: string | undefined, text: string, cls: PayloadClass<unknown>): boolean {
    const c = msgId === undefined ? undefined : this.checks.get(msgId);
    return c !== undefined && c.text === text && c.classes.includes(cls);
  }

  /** A message for a handler: validated unless its publisher here already did against `cls`. */
  private parse<T>(cls: PayloadClass<T>, text: string, msgId: string | undefined) {
    return this.isChecked(msgId, text, cls) ? parseCheckedPayload(cls, text) : parseEventPayload(cls, text);
  }

  /** Wakes each consumer with something new once, and hands listeners the events in order. */
  private stored(events: { subject: string; msgId: string | undefined; payload: string }[]): void {
    for (const g of this.groups.values()) if (events.some((e) => subjectMatches(g.filter, e.subject))) g.kick();
    for (const e of events)
      for (const l of this.listeners)
        if (subjectMatches(l.pattern, e.subject)) l.deliver(e.payload, e.subject, e.msgId);
  }

  async consumerLag(): Promise<ConsumerLag[]> {
    return Promise.all(
      [...this.groups.values()].map(async (g) => ({ ...g.ref, pending: await this.store.lag(g.ref, g.filter) })),
    );
  }

  processedThrough(stream: string, durable: string): Promise<number> {
    return this.store.processedThrough({ stream, durable });
  }

  async consume<T>(options: DurableConsumerOptions<T>): Promise<Unsubscribe> {
    const opts = options as DurableConsumerOptions<unknown>;
    const key = `${options.stream}\u0000${options.durable}`;
    let group = this.groups.get(key);
    if (!group) {
      group = new DurableGroup(
        this.store,
        opts,
        (input) => this.deadLetter(input),
        (msgId) => (msgId === undefined ? undefined : this.traces.get(msgId)),
        (cls, text, msgId) => this.parse(cls, text, msgId),
      );
      this.groups.set(key, group);
      await group.start();
    }
    const g = group;
    g.add(opts);
    return async () => {
      if (g.remove(opts) && this.groups.get(key) === g) {
        this.groups.delete(key);
        await g.stop();
      }
    };
  }

  listen<T>(source: EventSource<T>, handler: (payload: T, subject: string) => void): Unsubscribe {
    const listener: Listener = {
      pattern: subjectFilter(source),
      deliver: (text, subject, msgId) => {
        const parsed = this.parse(source.payload, text, msgId);
        if (!parsed.ok) {
          this.deadLetter({
            subject,
            msgId,
            consumer: 'listen',
            deliveryCount: 1,
            reason: 'invalid',
            error: parsed.error,
            payload: parsed.payload,
          }).catch((err: unknown) => this.logger.warn({ err, subject }, 'could not dead-letter'));
          return;
        }
        try {
          handler(parsed.value, subject);
        } catch (err) {
          this.logger.warn({ err, subject }, 'listener failed');
        }
      },
    };
    this.listeners.add(listener);
    return async () => {
      this.listeners.delete(listener);
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.pruner);
    clearTimeout(this.vacuumer);
    this.listeners.clear();
    await Promise.all([...this.groups.values()].map((g) => g.stop()));
    this.groups.clear();
    await this.store.close();
  }
}
