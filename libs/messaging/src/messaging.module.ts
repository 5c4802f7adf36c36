import {
  type DynamicModule,
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { connect, type NatsConnection } from 'nats';
import { busAccessOf, natsInboxPrefix, rpcServiceOf, streamsOf } from '@hub/bus-access';
import { BUS_PREFIX, Streams } from '@hub/contracts';
import { type BusMode } from './bus-mode';
import { EventBus } from './events/event-bus';
import { InProcessEventBus } from './events/in-process-event-bus';
import { type BusStoreOptions } from './events/store/bus-store';
import { ensureStream, NatsEventBus } from './events/nats-event-bus';
import { InProcessRpcClient } from './in-process/in-process-rpc-client';
import { NatsRpcClient } from './rpc/nats-rpc-client';
import { RpcClient } from './rpc/rpc-client';
import { BUS_MODE, NATS_CONNECTION } from './messaging.di';
import { RpcServer } from './rpc-server';
import { InProcessLiveBus, LiveBus, NatsLiveBus } from './live/live-bus';

export { BUS_MODE, NATS_CONNECTION };

export interface MessagingOptions {
  mode: BusMode;
  rpcTimeoutMs: number;
  /** Connection name shown by the NATS server (monitoring). */
  name: string;
  /**
   * In-process mode: the database the bus keeps its events in (the hub's own, schema `bus`).
   * Required there: events must survive a restart (decision 0007).
   */
  store?: BusStoreOptions;
  /** Days the streams (and the in-process bus) keep events: HUB_BUS_RETENTION_DAYS. Default 7. */
  retentionDays?: number;
}

/** Opens the NATS connection (if any), creates the streams, and closes it all on shutdown. */
@Injectable()
class BusLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection | null,
    private readonly events: EventBus,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.events.close();
    if (this.nc && !this.nc.isClosed()) await this.nc.drain();
  }
}

type NatsMode = Extract<BusMode, { kind: 'nats' }>;

/** The reply inbox of a connection: its user's own (`_INBOX_<user>`) when it has one. */
function inboxPrefixOf(mode: NatsMode): string | undefined {
  return mode.credentials ? natsInboxPrefix(mode.credentials.user) : undefined;
}

async function openNats(mode: NatsMode, name: string, retentionDays?: number): Promise<NatsConnection> {
  const logger = new Logger('Messaging');
  if (!mode.credentials)
    logger.warn(
      'NATS_USER and NATS_PASSWORD are unset: connecting to NATS without credentials (refused in production)',
    );
  // noAsyncTraces: nats.js otherwise builds two Error objects per request (about 15 % of the
  // gateway's CPU on RPC-heavy paths, measured by bench:gateway).
  const nc = await connect({
    servers: mode.url.split(','),
    name,
    maxReconnectAttempts: -1,
    noAsyncTraces: true,
    user: mode.credentials?.user,
    pass: mode.credentials?.password,
    inboxPrefix: inboxPrefixOf(mode),
  });
  const jsm = await nc.jetstreamManager();
  // Only the streams this app publishes into (created or updated) or reads (created if missing):
  // its NATS user may touch no other (decision 0013). An app of another name ensures them all.
  const access = busAccessOf(name);
  const streams = access
    ? streamsOf(access, BUS_PREFIX)
    : { owned: Object.values(Streams).map((s) => s.name), read: [] };
  for (const stream of Object.values(Streams)) {
    if (streams.owned.includes(stream.name)) await ensureStream(jsm, stream, retentionDays);
    else if (streams.read.includes(stream.name)) await ensureStream(jsm, stream, retentionDays, { update: false });
  }
  logger.log(`connected to NATS at ${mode.url}${mode.credentials ? ` as ${mode.credentials.user}` : ''}`);
  return nc;
}

@Global()
@Module({})
export class MessagingModule {
  static forRoot(options: MessagingOptions): DynamicModule {
    const { mode } = options;
    return {
      module: MessagingModule,
      providers: [
        { provide: BUS_MODE, useValue: mode },
        {
          provide: NATS_CONNECTION,
          useFactory: async () => (mode.kind === 'nats' ? openNats(mode, options.name, options.retentionDays) : null),
        },
        {
          provide: RpcClient,
          inject: [NATS_CONNECTION],
          useFactory: (nc: NatsConnection | null) =>
            mode.kind === 'nats' && nc
              ? new NatsRpcClient(nc, options.rpcTimeoutMs, inboxPrefixOf(mode), rpcServiceOf)
              : new InProcessRpcClient((mode as Extract<BusMode, { kind: 'in-process' }>).broker, options.rpcTimeoutMs),
        },
        {
          provide: EventBus,
          inject: [NATS_CONNECTION],
          useFactory: async (nc: NatsConnection | null) => {
            if (nc) return new NatsEventBus(nc, await nc.jetstreamManager());
            if (!options.store)
              throw new Error('MessagingModule: the in-process bus needs a store (database URL or data directory)');
            return InProcessEventBus.open({ retentionDays: options.retentionDays, ...options.store });
          },
        },
        {
          provide: LiveBus,
          inject: [NATS_CONNECTION],
          useFactory: (nc: NatsConnection | null) => (nc ? new NatsLiveBus(nc) : new InProcessLiveBus()),
        },
        BusLifecycle,
        RpcServer,
      ],
      exports: [RpcClient, RpcServer, EventBus, LiveBus, NATS_CONNECTION, BUS_MODE],
    };
  }
}
