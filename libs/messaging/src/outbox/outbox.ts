import { Logger } from '@nestjs/common';
import { validateSync } from 'class-validator';
import { plainToInstance } from 'class-transformer';
import { type DataSource, type EntityManager } from 'typeorm';
import { type EventDescriptor, type PayloadClass } from '@hub/contracts';
import { newObjectId } from '@hub/persistence';
import { flattenValidationErrors } from '../rpc/payload-validation';
import { type EventBus } from '../events/event-bus';
import { type OutboxRelay } from './outbox-relay';

/** How long publishNow waits for the bus before leaving the event to the relay. */
const PUBLISH_NOW_TIMEOUT_MS = 1000;

export interface OutboxAddOptions {
  /** What the event is about (an organization id, a user id): kept for diagnosis. */
  aggregate?: string;
}

/** One event for `Outbox.write`. */
export interface OutboxEvent<T = unknown> {
  event: EventDescriptor<T>;
  payload: T;
  aggregate?: string;
}

/** An event for `Outbox.write`, its payload typed by its descriptor. */
export const outboxEvent = <T>(event: EventDescriptor<T>, payload: T, aggregate?: string): OutboxEvent<T> => ({
  event,
  payload,
  aggregate,
});

/** A column name as SQL (double-quoted). */
const quoteIdentifier = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The payload as it will be stored, once checked against the event's class. */
function checkedPayload<T>(event: EventDescriptor<T>, payload: T): string {
  const json = JSON.stringify(payload);
  const errors = validateSync(plainToInstance(event.payload, JSON.parse(json) as object) as object, {
    forbidUnknownValues: false,
  });
  if (errors.length > 0)
    throw new Error(`invalid ${event.subject} event: ${flattenValidationErrors(errors).join('; ')}`);
  return json;
}

/**
 * A service's transactional outbox: a use case writes its state change and the events it
 * causes in one transaction, and the relay publishes them after the commit (decision 0007).
 *
 *   await this.outbox.transaction(async (m) => {
 *     await m.insert(OrganizationEntity, org);
 *     await this.outbox.add(m, Events.Audit.of('org.create'), audit, { aggregate: org.id });
 *   });
 */
export class Outbox {
  private readonly logger: Logger;
  /** Transactions' managers that added an event (the relay is kicked after their commit). */
  private readonly added = new WeakSet<EntityManager>();

  constructor(
    private readonly ds: DataSource,
    private readonly schema: string,
    private readonly relay: OutboxRelay,
    private readonly bus: EventBus,
  ) {
    this.logger = new Logger(`Outbox:${schema}`);
  }

  /**
   * Adds an event inside the caller's transaction; returns its id (its msgId on the bus). The
   * payload is checked against the event's class here, so a bad event fails the use case that
   * made it instead of a consumer later.
   */
  async add<T>(
    m: EntityManager,
    event: EventDescriptor<T>,
    payload: T,
    options: OutboxAddOptions = {},
  ): Promise<string> {
    const json = checkedPayload(event, payload);
    const id = newObjectId();
    this.relay.noteChecked(id, event.payload as PayloadClass<unknown>);
    await m.query(`INSERT INTO ${this.schema}.outbox (id, subject, payload, aggregate) VALUES ($1, $2, $3, $4)`, [
      id,
      event.subject,
      json,
      options.aggregate ?? null,
    ]);
    this.added.add(m);
    return id;
  }

  /**
   * One data-modifying statement (`INSERT …` / `UPDATE … RETURNING …`, parameters `$1…`) and its
   * events, written atomically in a single statement, then published at once: the events are
   * stored only when the statement returned a row (a conditional update that did not apply adds
   * none). Returns the statement's rows. For a write whose events are known before it runs, this
   * is one round trip where `transaction` + `add` takes BEGIN, the write, an INSERT per event and
   * COMMIT (the jobs launcher's stage changes, decision 0613). Given the manager `m` of an
   * `outbox.transaction`, the statement runs in that transaction and its events are published
   * after its commit (in a transaction opened otherwise, only at the relay's next poll).
   *
   * With `byAggregate` (a column the statement returns), a statement that changes several rows
   * stores each event only when a row whose column equals the event's `aggregate` was returned:
   * one statement for several conditional updates (the jobs launcher's RUNNING updates, batched).
   */
  async write<R>(
    statement: { sql: string; parameters: unknown[] },
    events: OutboxEvent[],
    m?: EntityManager,
    byAggregate?: string,
  ): Promise<R[]> {
    const parameters = [...statement.parameters];
    const rows = events.map((e, i) => {
      const id = newObjectId();
      parameters.push(id, e.event.subject, checkedPayload(e.event, e.payload), e.aggregate ?? null);
      this.relay.noteChecked(id, e.event.payload as PayloadClass<unknown>);
      const n = parameters.length;
      return `($${n - 3}, $${n - 2}, $${n - 1}, $${n}, ${i})`;
    });
    const applies = byAggregate
      ? `e.aggregate IN (SELECT c.${quoteIdentifier(byAggregate)}::text FROM changed c)`
      : 'EXISTS (SELECT 1 FROM changed)';
    // Inside a CTE: TypeORM returns a bare UPDATE … RETURNING as [rows, count]. ORDER BY: seq follows the events' order.
    const sql = `WITH changed AS (${statement.sql})${
      rows.length === 0
        ? ''
        : `,
      events AS (INSERT INTO ${this.schema}.outbox (id, subject, payload, aggregate)
        SELECT e.id, e.subject, e.payload, e.aggregate FROM (VALUES ${rows.join(', ')}) AS e(id, subject, payload, aggregate, n)
        WHERE ${applies} ORDER BY e.n)`
    }
      SELECT * FROM changed`;
    const result: R[] = await (m ?? this.ds).query(sql, parameters);
    if (events.length > 0 && result.length > 0) {
      if (m) this.added.add(m);
      else this.relay.kick();
    }
    return result;
  }

  /**
   * Runs work in a transaction on the service's DataSource, then has the relay publish at once
   * what it added (a transaction that added no event does not wake the relay: a consumer applying
   * one event per transaction would otherwise cost the relay a poll per event).
   */
  async transaction<R>(work: (m: EntityManager) => Promise<R>): Promise<R> {
    let added = false;
    const result = await this.ds.transaction(async (m) => {
      const r = await work(m);
      added = this.added.delete(m);
      return r;
    });
    if (added) this.relay.kick();
    return result;
  }

  /** For use cases that run their own transaction: publish what it added now. */
  kick(): void {
    this.relay.kick();
  }

  /**
   * Publishes an event a committed transaction added, before the caller answers: for facts other
   * processes must have heard by then (a revoked token fails on every gateway once the 202 is
   * back). Same msgId as the outbox row, so the relay's later publish is dropped as a repeat.
   * Best effort: if the bus is away the relay still has the row, and the caller sees no error.
   */
  async publishNow<T>(event: EventDescriptor<T>, payload: T, id: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    // Bounded: with NATS away a JetStream publish waits for its ack well past the RPC timeout.
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), PUBLISH_NOW_TIMEOUT_MS)));
    const published = this.bus.publish(event, payload, { msgId: id }).then(() => 'sent' as const);
    try {
      if ((await Promise.race([published, late])) === 'late') {
        this.logger.warn(
          { subject: event.subject, id },
          'the bus did not take the event in time; the relay will retry',
        );
        published.catch(() => undefined);
      }
    } catch (err) {
      this.logger.warn({ err, subject: event.subject, id }, 'publishing at once failed; the relay will retry');
    } finally {
      clearTimeout(timer);
    }
  }
}
