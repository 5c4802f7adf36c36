import { type NatsConnection } from 'nats';
import { type DataSource } from 'typeorm';
import { type ReadinessCheck } from './health.controller';

export function databaseCheck(name: string, ds: DataSource): ReadinessCheck {
  return { name, check: async () => void (await ds.query('SELECT 1')) };
}

export function natsCheck(nc: NatsConnection | null): ReadinessCheck[] {
  if (!nc) return [];
  return [{ name: 'nats', check: async () => void (await nc.flush()) }];
}
