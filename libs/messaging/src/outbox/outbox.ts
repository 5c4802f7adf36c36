import { validateSync } from 'class-validator';
import { plainToInstance } from 'class-transformer';
import { type DataSource, type EntityManager } from 'typeorm';
import { type EventDescriptor } from '@hub/contracts';
import { newObjectId } from '@hub/persistence';
import { flattenValidationErrors } from '../rpc/rpc-handler.decorators';
import { type OutboxRelay } from './outbox-relay';

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
  constructor(
    private readonly ds: DataSource,
    private readonly schema: string,
    private readonly relay: OutboxRelay,
  ) {}

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
}
