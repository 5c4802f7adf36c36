import { type DataSource } from 'typeorm';
import { openDataSource, runMigrations } from '@hub/persistence';
import { createTestDatabase, describeWithInfra, type TestDatabase } from '@hub/testing';
import { ORGANIZATIONS_MIGRATIONS } from '../migrations';
import { RepositoriesStore } from './repositories.store';

/** A repo event with no audit record (a push): the bus id and the catalogue row in one statement. */
describeWithInfra('repository catalogue, applyUpsert (real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;

  const row = async (name: string): Promise<{ visibility: string; storage: string } | undefined> =>
    (
      (await ds.query(
        `SELECT visibility, storage::text FROM organizations.repositories WHERE type = 'model' AND name = $1`,
        [name],
      )) as { visibility: string; storage: string }[]
    )[0];
  const applied = async (id: string): Promise<number> =>
    (
      (await ds.query(`SELECT count(*)::int AS n FROM organizations.repo_events_applied WHERE msg_id = $1`, [id])) as {
        n: number;
      }[]
    )[0]!.n;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await openDataSource({
      schema: 'organizations',
      entities: [],
      migrations: ORGANIZATIONS_MIGRATIONS,
      databaseUrl: db.url,
      poolSize: 4,
    });
    await runMigrations(ds, 'organizations');
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('writes the row and the id once; the same id again changes nothing', async () => {
    const push = { type: 'model' as const, name: 'alice/one', storage: 100 };
    await expect(RepositoriesStore.applyUpsert(ds.manager, 'ev-1', push)).resolves.toBe(true);
    expect(await row('alice/one')).toEqual({ visibility: 'public', storage: '100' });
    expect(await applied('ev-1')).toBe(1);
    // A redelivery of ev-1 carrying other figures (as if the payload were read again): not applied.
    await expect(RepositoriesStore.applyUpsert(ds.manager, 'ev-1', { ...push, storage: 999 })).resolves.toBe(false);
    expect(await row('alice/one')).toEqual({ visibility: 'public', storage: '100' });
    // Another event about it updates it; a missing storage or visibility keeps the known one.
    await RepositoriesStore.applyUpsert(ds.manager, 'ev-2', {
      type: 'model',
      name: 'alice/one',
      visibility: 'private',
    });
    expect(await row('alice/one')).toEqual({ visibility: 'private', storage: '100' });
  });

  it('applies an id once when two deliveries race', async () => {
    const push = { type: 'model' as const, name: 'alice/raced', storage: 5 };
    const results = await Promise.all([
      RepositoriesStore.applyUpsert(ds.manager, 'ev-raced', push),
      RepositoriesStore.applyUpsert(ds.manager, 'ev-raced', push),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await applied('ev-raced')).toBe(1);
  });

  it('without a bus id, writes the row every time and records no id', async () => {
    const before = (
      (await ds.query(`SELECT count(*)::int AS n FROM organizations.repo_events_applied`)) as { n: number }[]
    )[0]!.n;
    await expect(
      RepositoriesStore.applyUpsert(ds.manager, undefined, { type: 'model', name: 'bob/two', storage: 7 }),
    ).resolves.toBe(true);
    await expect(
      RepositoriesStore.applyUpsert(ds.manager, undefined, { type: 'model', name: 'bob/two', storage: 8 }),
    ).resolves.toBe(true);
    expect(await row('bob/two')).toEqual({ visibility: 'public', storage: '8' });
    const after = (
      (await ds.query(`SELECT count(*)::int AS n FROM organizations.repo_events_applied`)) as { n: number }[]
    )[0]!.n;
    expect(after).toBe(before);
  });
});
