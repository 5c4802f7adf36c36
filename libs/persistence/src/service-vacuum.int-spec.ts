import * as pg from 'pg';
import { DataSource } from 'typeorm';
import { createTestDatabase, describeWithInfra, type TestDatabase } from '@hub/testing';
import { ServiceVacuum, type ServicePersistenceOptions } from './service-persistence.module';

/** A distributed service on a Postgres without autovacuum vacuums its own schema, one replica at a time. */
describeWithInfra('ServiceVacuum on Postgres', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const options = (schema: string): ServicePersistenceOptions => ({
    name: schema,
    schema,
    entities: [],
    migrations: [],
    migrateOnStart: false,
    databaseUrl: db.url,
  });

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await new DataSource({ type: 'postgres', url: db.url, driver: pg, poolSize: 4 }).initialize();
    for (const schema of ['svc_a', 'svc_b']) {
      await ds.query(`CREATE SCHEMA ${schema}`);
      await ds.query(`CREATE TABLE ${schema}.queue (id int PRIMARY KEY)`);
      await ds.query(`INSERT INTO ${schema}.queue SELECT generate_series(1, 300)`);
      await ds.query(`DELETE FROM ${schema}.queue WHERE id > 10`);
    }
    // Statistics reach pg_stat_user_tables within about a second (what the thresholds read).
    const deadline = Date.now() + 10_000;
    for (;;) {
      const rows = (await ds.query(
        `SELECT count(*)::int AS n FROM pg_stat_user_tables WHERE relname = 'queue' AND n_dead_tup >= 290`,
      )) as { n: number }[];
      if ((rows[0]?.n ?? 0) === 2 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 200));
    }
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it("vacuums its own schema only, and skips a pass while another replica holds the schema's vacuum lock", async () => {
    const other = await new DataSource({ type: 'postgres', url: db.url, driver: pg, poolSize: 1 }).initialize();
    try {
      await other.query(`SELECT pg_advisory_lock(hashtext('hub-vacuum:svc_a'))`);
      expect(await new ServiceVacuum(options('svc_a'), ds).vacuumOnce()).toEqual([]);
      await other.query(`SELECT pg_advisory_unlock(hashtext('hub-vacuum:svc_a'))`);
    } finally {
      await other.destroy();
    }
    expect(await new ServiceVacuum(options('svc_a'), ds).vacuumOnce()).toEqual(['svc_a.queue']);
    const dead = (await ds.query(
      `SELECT schemaname AS schema, n_dead_tup::int AS dead FROM pg_stat_user_tables WHERE relname = 'queue' ORDER BY schemaname`,
    )) as { schema: string; dead: number }[];
    expect(dead).toEqual([
      { schema: 'svc_a', dead: 0 },
      { schema: 'svc_b', dead: 290 },
    ]);
  }, 30_000);
});
