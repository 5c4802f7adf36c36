import { type DynamicModule, Inject, Injectable, Logger, Module, type OnModuleInit } from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { runMigrations, type ServiceDataSourceOptions, serviceDataSourceOptions } from './data-source.factory';

export interface ServicePersistenceOptions extends ServiceDataSourceOptions {
  /** The DataSource name: inject it with @InjectDataSource(name). */
  name: string;
  migrateOnStart: boolean;
}

const OPTIONS = Symbol('SERVICE_PERSISTENCE_OPTIONS');

/** Runs the service's pending migrations at start when configured (the all-in-one default). */
@Injectable()
class ServiceMigrator implements OnModuleInit {
  constructor(
    @Inject(OPTIONS) private readonly options: ServicePersistenceOptions,
    @Inject('HUB_SERVICE_DATA_SOURCE') private readonly ds: DataSource,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.options.migrateOnStart) return;
    const ran = await runMigrations(this.ds, this.options.schema);
    if (ran > 0) new Logger(this.options.name).log(`ran ${ran} migration(s) in schema ${this.options.schema}`);
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
      ],
    };
  }
}

/** What a service declares about its storage; the deployment's config supplies the rest. */
export type ServiceStorage = Pick<ServicePersistenceOptions, 'name' | 'schema' | 'entities' | 'migrations'>;

export function persistenceOptions(
  storage: ServiceStorage,
  config: { DATABASE_URL?: string; HUB_DATA_DIR: string; migrateOnStart: boolean },
): ServicePersistenceOptions {
  return { ...storage, databaseUrl: config.DATABASE_URL, dataDir: config.HUB_DATA_DIR, migrateOnStart: config.migrateOnStart };
}
