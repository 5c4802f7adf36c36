import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The all-in-one bus in the embedded database: the events (a stream), each durable consumer's
 * cursor, and the messages a consumer took but has not acknowledged yet.
 */
export class CreateBus1763900000000 implements MigrationInterface {
  name = 'CreateBus1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE bus.events (
      seq bigserial PRIMARY KEY,
      subject text NOT NULL,
      msg_id text UNIQUE,
      payload text NOT NULL,
      published_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX events_published_at ON bus.events (published_at)`);
    await q.query(`CREATE TABLE bus.consumers (
      stream text NOT NULL,
      durable text NOT NULL,
      filter text NOT NULL,
      cursor bigint NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (stream, durable))`);
    await q.query(`CREATE TABLE bus.pending (
      stream text NOT NULL,
      durable text NOT NULL,
      seq bigint NOT NULL,
      deliveries int NOT NULL DEFAULT 0,
      next_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (stream, durable, seq),
      FOREIGN KEY (stream, durable) REFERENCES bus.consumers (stream, durable) ON DELETE CASCADE)`);
    await q.query(`CREATE INDEX pending_due ON bus.pending (stream, durable, next_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE bus.pending`);
    await q.query(`DROP TABLE bus.consumers`);
    await q.query(`DROP TABLE bus.events`);
  }
}

/** In order. Never edit one that has landed; add a new one. */
export const BUS_MIGRATIONS = [CreateBus1763900000000];
