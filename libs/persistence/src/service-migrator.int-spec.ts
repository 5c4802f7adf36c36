import { DataSource, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTestDatabase, describeWithInfra, type TestDatabase } from '@hub/testing';
import { serviceDataSourceOptions } from './data-source.factory';
import { ServiceMigrator, type ServicePersistenceOptions, UnmigratedDatabaseError } from './service-persistence.module';

class CreateThings1700000000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE svc_m.things (id int PRIMARY KEY)`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE svc_m.things`);
  }
}

/** A service that does not migrate at start refuses to start on a schema lacking its migrations. */
describeWithInfra('ServiceMigrator on Postgres', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let options: (migrateOnStart: boolean) => ServicePersistenceOptions;

  beforeAll(async () => {
    db = await createTestDatabase();
    options = (migrateOnStart) => ({
      name: 'svc_m',
      schema: 'svc_m',
      entities: [],
      migrations: [CreateThings1700000000000],
      migrateOnStart,
      databaseUrl: db.url,
    });
    ds = await new DataSource(serviceDataSourceOptions({ ...options(false), poolSize: 2 })).initialize();
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const schemaExists = async (): Promise<boolean> =>
    ((await ds.query(`SELECT to_regnamespace('svc_m') IS NOT NULL AS e`)) as { e: boolean }[])[0].e;

  it('without migrations at start: a clear error naming the schema and what to run, and nothing created', async () => {
    const start = new ServiceMigrator(options(false), ds).onModuleInit();
    await expect(start).rejects.toThrow(UnmigratedDatabaseError);
    await expect(start).rejects.toThrow(
      /schema "svc_m" of the database at DATABASE_URL lacks 1 migration\(s\).*\(first: CreateThings1700000000000\).*HUB_MIGRATE_ON_START=true/,
    );
    expect(await schemaExists()).toBe(false);
  });

  it('once migrated (at start here), a start without migrations goes ahead', async () => {
    await new ServiceMigrator(options(true), ds).onModuleInit();
    expect(await ds.query(`SELECT count(*)::int AS n FROM svc_m.things`)).toEqual([{ n: 0 }]);
    await expect(new ServiceMigrator(options(false), ds).onModuleInit()).resolves.toBeUndefined();
  });
});
