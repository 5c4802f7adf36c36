import { Logger } from '@nestjs/common';
import { validateSync } from 'class-validator';
import { plainToInstance } from 'class-transformer';
import { type DataSource, type EntityManager } from 'typeorm';
import { type EventDescriptor } from '@hub/contracts';
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
  async add<T>(m: EntityManager, event: EventDescriptor<T>, payload: T, options: OutboxAddOptions = {}): Promise<string> {
    const errors = validateSync(plainToInstance(event.payload, JSON.parse(JSON.stringify(payload)) as object) as object, { forbidUnknownValues: false });
    if (errors.length > 0) throw new Error(`invalid ${event.subject} event: ${flattenValidationErrors(errors).join('; ')}`);
    const id = newObjectId();
    await m.query(`INSERT INTO ${this.schema}.outbox (id, subject, payload, aggregate) VALUES ($1, $2, $3, $4)`, [
      id, event.subject, JSON.stringify(payload), options.aggregate ?? null,
    ]);
    return id;
  }

  /** Runs work in a transaction on the service's DataSource, then has the relay publish at once. */
  async transaction<R>(work: (m: EntityManager) => Promise<R>): Promise<R> {
    const result = await this.ds.transaction(work);
    this.relay.kick();
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
        this.logger.warn({ subject: event.subject, id }, 'the bus did not take the event in time; the relay will retry');
        published.catch(() => undefined);
      }
    } catch (err) {
      this.logger.warn({ err, subject: event.subject, id }, 'publishing at once failed; the relay will retry');
    } finally {
      clearTimeout(timer);
    }
  }
}
