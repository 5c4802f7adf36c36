import * as pg from 'pg';
import { DataSource, type DataSourceOptions, type EntitySchema, type MixedList } from 'typeorm';

export interface ServiceDataSourceOptions {
  /** The service's own Postgres schema; it never reads another's. */
  schema: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function | string>;
  /** The Postgres server (the all-in-one hub's embedded one unless DATABASE_URL names another). */
  databaseUrl?: string;
  poolSize?: number;
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
  // A distributed service has no embedded database: the all-in-one hub starts one and sets the URL.
  if (!o.databaseUrl)
    throw new Error(
      'DATABASE_URL is required: set it to a PostgreSQL server (only the all-in-one hub runs an embedded one)',
    );
  // Pass the driver: a lazily required `pg` is left out of the built app (toolchain trap 4).
  return { ...common, url: o.databaseUrl, driver: pg, poolSize: o.poolSize ?? 10, applicationName: `hub-${o.schema}` };
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
