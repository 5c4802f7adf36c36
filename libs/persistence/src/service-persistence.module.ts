import {
  type DynamicModule,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { runMigrations, type ServiceDataSourceOptions, serviceDataSourceOptions } from './data-source.factory';
import { vacuumedByNobody, vacuumLikeAutovacuum } from './vacuum';

export interface ServicePersistenceOptions extends ServiceDataSourceOptions {
  /** The DataSource name: inject it with @InjectDataSource(name). */
  name: string;
  migrateOnStart: boolean;
}

const OPTIONS = Symbol('SERVICE_PERSISTENCE_OPTIONS');

/** A database whose schema lacks migrations this version needs, where they do not run at start. */
export class UnmigratedDatabaseError extends Error {
  override readonly name = 'UnmigratedDatabaseError';
}

/** Runs the service's pending migrations at start when configured (the all-in-one default). */
@Injectable()
export class ServiceMigrator implements OnModuleInit {
  constructor(
    @Inject(OPTIONS) private readonly options: ServicePersistenceOptions,
    @Inject('HUB_SERVICE_DATA_SOURCE') private readonly ds: DataSource,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.options.migrateOnStart) return this.refuseUnmigrated();
    const ran = await runMigrations(this.ds, this.options.schema);
    if (ran > 0) new Logger(this.options.name).log(`ran ${ran} migration(s) in schema ${this.options.schema}`);
  }

  /**
   * Not migrating at start (an external DATABASE_URL): a schema that lacks migrations this code
   * needs stops the start with what to run, rather than answering 500s ("relation does not
   * exist") later. Read-only: it creates nothing.
   */
  private async refuseUnmigrated(): Promise<void> {
    const { schema } = this.options;
    const [{ table }] = (await this.ds.query(`SELECT to_regclass($1) AS table`, [`"${schema}".migrations`])) as {
      table: string | null;
    }[];
    const done = new Set<string>(
      table
        ? ((await this.ds.query(`SELECT name FROM "${schema}".migrations`)) as { name: string }[]).map((r) => r.name)
        : [],
    );
    const pending = this.ds.migrations.map((m) => m.name ?? m.constructor.name).filter((n) => !done.has(n));
    if (pending.length === 0) return;
    throw new UnmigratedDatabaseError(
      `schema "${schema}" of the database at DATABASE_URL lacks ${pending.length} migration(s) this version needs ` +
        `(first: ${pending[0]}): run the migrations first (a service: "node main.js migrate"; the all-in-one hub: ` +
        `start it once with HUB_MIGRATE_ON_START=true), or set HUB_MIGRATE_ON_START=true`,
    );
  }
}

const FIRST_VACUUM_MS = 60_000;
const VACUUM_EVERY_MS = 10 * 60_000;

/**
 * Where nothing else vacuums the database (a Postgres server with `autovacuum = off`), a service
 * vacuums its own schema as autovacuum would: a minute after start, then every 10 minutes, one
 * replica at a time (an advisory lock). Its queue tables would otherwise keep every dead row
 * version and the planner would never learn their sizes. It says so once at warn; with
 * autovacuum on (the default, and the all-in-one hub's embedded Postgres) it does nothing. The
 * in-process bus vacuums its own schema likewise (decision 0011).
 */
@Injectable()
export class ServiceVacuum implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private readonly logger: Logger;

  constructor(
    @Inject(OPTIONS) private readonly options: ServicePersistenceOptions,
    @Inject('HUB_SERVICE_DATA_SOURCE') private readonly ds: DataSource,
  ) {
    this.logger = new Logger(options.name);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!(await vacuumedByNobody(this.ds))) return;
    this.logger.warn(
      `autovacuum is off on this Postgres: vacuuming schema ${this.options.schema} every ${VACUUM_EVERY_MS / 60_000} minutes (turn autovacuum on instead)`,
    );
    this.schedule(FIRST_VACUUM_MS);
  }

  onApplicationShutdown(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** One pass, if no other replica is vacuuming this schema; returns the tables vacuumed. */
  async vacuumOnce(): Promise<string[]> {
    const runner = this.ds.createQueryRunner();
    try {
      const [lock] = (await runner.query(`SELECT pg_try_advisory_lock(hashtext($1)) AS got`, [
        `hub-vacuum:${this.options.schema}`,
      ])) as { got: boolean }[];
      if (!lock?.got) return [];
      try {
        return await vacuumLikeAutovacuum(this.ds, this.options.schema);
      } finally {
        await runner.query(`SELECT pg_advisory_unlock(hashtext($1))`, [`hub-vacuum:${this.options.schema}`]);
      }
    } finally {
      await runner.release();
    }
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      const started = Date.now();
      this.vacuumOnce()
        .then((tables) => {
          if (tables.length > 0)
            this.logger.log(
              { tables, ms: Date.now() - started },
              `vacuumed ${tables.length} table(s) of schema ${this.options.schema}`,
            );
        })
        .catch((err: unknown) => this.logger.warn({ err }, `vacuuming schema ${this.options.schema} failed`))
        .finally(() => {
          if (this.timer) this.schedule(VACUUM_EVERY_MS);
        });
    }, ms);
    this.timer.unref();
  }
}

/** A service's own DataSource (named, in its own schema) and its migrations. */
@Module({})
export class ServicePersistenceModule {
  static forService(options: ServicePersistenceOptions): DynamicModule {
    return {
      module: ServicePersistenceModule,
      imports: [
        TypeOrmModule.forRootAsync({
          name: options.name,
          useFactory: () => ({ ...serviceDataSourceOptions(options), name: options.name }),
        }),
      ],
      providers: [
        { provide: OPTIONS, useValue: options },
        { provide: 'HUB_SERVICE_DATA_SOURCE', useExisting: getDataSourceToken(options.name) },
        ServiceMigrator,
        ServiceVacuum,
      ],
    };
  }
}

/** What a service declares about its storage; the deployment's config supplies the rest. */
export type ServiceStorage = Pick<ServicePersistenceOptions, 'name' | 'schema' | 'entities' | 'migrations'>;

export function persistenceOptions(
  storage: ServiceStorage,
  config: { DATABASE_URL?: string; migrateOnStart: boolean },
): ServicePersistenceOptions {
  return { ...storage, databaseUrl: config.DATABASE_URL, migrateOnStart: config.migrateOnStart };
}
