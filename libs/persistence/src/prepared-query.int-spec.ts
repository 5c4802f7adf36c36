import { DataSource } from 'typeorm';
import * as pg from 'pg';
import { createTestDatabase, describeWithInfra, type TestDatabase } from '@hub/testing';
import { preparedQuery } from './prepared-query';

describeWithInfra('preparedQuery on Postgres', () => {
  let db: TestDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    // One connection, so the statement list we read is the one the query prepared on.
    ds = await new DataSource({ type: 'postgres', url: db.url, driver: pg, poolSize: 1 }).initialize();
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('answers like a plain query and is kept as a named prepared statement', async () => {
    const rows = await preparedQuery<{ n: number }>(ds, 'hub-test-double', 'SELECT $1::int * 2 AS n', [21]);
    expect(rows).toEqual([{ n: 42 }]);
    expect(await preparedQuery<{ n: number }>(ds, 'hub-test-double', 'SELECT $1::int * 2 AS n', [5])).toEqual([
      { n: 10 },
    ]);
    const statements = (await ds.query('SELECT name FROM pg_prepared_statements')) as { name: string }[];
    expect(statements.map((s) => s.name)).toContain('hub-test-double');
  });
});
