import { type NatsConnection } from 'nats';
import { type DataSource } from 'typeorm';
import { type PoolStats, type ReadinessCheck } from './health.controller';

export function databaseCheck(name: string, ds: DataSource): ReadinessCheck {
  // TypeORM's Postgres driver keeps its pg Pool as `master` (a public, untyped property).
  const pool = (ds.driver as unknown as { master?: PoolStats }).master;
  return { name, check: async () => void (await ds.query('SELECT 1')), pool };
}

export function natsCheck(nc: NatsConnection | null): ReadinessCheck[] {
  if (!nc) return [];
  return [{ name: 'nats', check: async () => void (await nc.flush()) }];
}
