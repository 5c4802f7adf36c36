import {
  type DynamicModule,
  Injectable,
  Module,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { EventBus } from '../events/event-bus';
import { Outbox } from './outbox';
import { OutboxRelay } from './outbox-relay';

export interface OutboxModuleOptions {
  /** The service's named DataSource (ServicePersistenceModule's name). */
  dataSource: string;
  /** The service's schema, which holds its `outbox` and `outbox_relay` tables (a migration of the service). */
  schema: string;
}

const OPTIONS = Symbol('OUTBOX_OPTIONS');

/** Starts the relay once migrations have run (bootstrap) and stops it before the bus closes. */
@Injectable()
class OutboxRelayLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(private readonly relay: OutboxRelay) {}

  onApplicationBootstrap(): void {
    this.relay.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.relay.stop();
  }
}

/** A service's outbox and its relay: `imports: [OutboxModule.forService({ dataSource, schema })]`, inject `Outbox`. */
@Module({})
export class OutboxModule {
  static forService(options: OutboxModuleOptions): DynamicModule {
    return {
      module: OutboxModule,
      providers: [
        { provide: OPTIONS, useValue: options },
        {
          provide: OutboxRelay,
          inject: [getDataSourceToken(options.dataSource), EventBus, OPTIONS],
          useFactory: (ds: DataSource, bus: EventBus, o: OutboxModuleOptions) => new OutboxRelay(ds, bus, o.schema),
        },
        {
          provide: Outbox,
          inject: [getDataSourceToken(options.dataSource), OutboxRelay, EventBus, OPTIONS],
          useFactory: (ds: DataSource, relay: OutboxRelay, bus: EventBus, o: OutboxModuleOptions) =>
            new Outbox(ds, o.schema, relay, bus),
        },
        OutboxRelayLifecycle,
      ],
      exports: [Outbox],
    };
  }
}
