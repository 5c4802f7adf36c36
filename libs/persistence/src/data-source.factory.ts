import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import * as pg from 'pg';
import { DataSource, type DataSourceOptions, type EntitySchema, type MixedList } from 'typeorm';
import { PGliteDriver } from 'typeorm-pglite';
import { serialPGlitePool } from './pglite-serial-pool';

export interface ServiceDataSourceOptions {
  /** The service's own Postgres schema; it never reads another's. */
  schema: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function | string>;
  /** Postgres when set; otherwise the embedded PGlite under dataDir. */
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
}

let pgliteDriver: PGliteDriver | undefined;

/**
 * One PGlite per process (typeorm-pglite keeps a single instance): every service of the
 * all-in-one process shares it, each in its own schema.
 */
function embeddedDriver(dataDir: string): PGliteDriver {
  if (!pgliteDriver) {
    const dir = resolve(dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
    pgliteDriver = new PGliteDriver({ dataDir: dir });
  }
  return pgliteDriver;
}

export function serviceDataSourceOptions(o: ServiceDataSourceOptions): DataSourceOptions {
  const common = {
    type: 'postgres' as const,
    schema: o.schema,
    entities: o.entities,
    // Arrays of classes, not globs: the webpack bundle has no files to glob (toolchain trap 3).
    migrations: o.migrations,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
  };
  if (o.databaseUrl) {
    // Pass the driver: a lazily required `pg` is left out of the built app (toolchain trap 4).
    return { ...common, url: o.databaseUrl, driver: pg, poolSize: o.poolSize ?? 10, applicationName: `hub-${o.schema}` };
  }
  // typeorm-pglite's own pool lets transactions interleave in PGlite's one session; ours
  // serializes them (see serialPGlitePool). The driver instance still sets PGlite's options.
  return { ...common, driver: { Pool: serialPGlitePool(embeddedDriver(o.dataDir)) } };
}

/** Creates the schema if needed, then runs pending migrations. Returns how many ran. */
export async function runMigrations(ds: DataSource, schema: string): Promise<number> {
  await ds.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  const ran = await ds.runMigrations({ transaction: 'each' });
  return ran.length;
}

export async function openDataSource(o: ServiceDataSourceOptions): Promise<DataSource> {
  return new DataSource(serviceDataSourceOptions(o)).initialize();
}

/** The `migrate` entry point of a service: run pending migrations, close, report the count. */
export async function migrateService(o: ServiceDataSourceOptions): Promise<number> {
  const ds = await openDataSource(o);
  try {
    return await runMigrations(ds, o.schema);
  } finally {
    await ds.destroy();
  }
}
