import { Gauge, type Registry } from 'prom-client';
import { type EmbeddedPostgres } from '@hub/persistence';

/**
 * hub_embedded_postgres_up: 1 while the hub's own PostgreSQL answers on its socket, 0 when it does
 * not (asked at scrape time). The hub's process may outlive its database (decision 0016): this is
 * what the "embedded PostgreSQL down" alert reads.
 */
export function registerEmbeddedPostgresMetric(registry: Registry, pgsql: EmbeddedPostgres): void {
  new Gauge({
    name: 'hub_embedded_postgres_up',
    help: 'Whether the embedded PostgreSQL of the all-in-one hub answers (1) or not (0)',
    registers: [registry],
    async collect() {
      this.set((await pgsql.answers()) ? 1 : 0);
    },
  });
}
