import { type DynamicModule, Inject, type INestApplicationContext, type LoggerService, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { connect, type NatsConnection } from 'nats';
import { IsInt, IsString, Min } from 'class-validator';
import { ConflictError, HubError, type RequestContext, rpc, TailedReply } from '@hub/contracts';
import { createTestDatabase, describeWithInfra, NATS_URL_FOR_TESTS, type TestDatabase } from '@hub/testing';
import { type BusMode } from './bus-mode';
import { InProcessBroker } from './in-process/in-process-broker';
import { InProcessRpcClient } from './in-process/in-process-rpc-client';
import { MessagingModule } from './messaging.module';
import { RpcServer } from './rpc-server';
import { NatsRpcClient } from './rpc/nats-rpc-client';
import { type RpcClient } from './rpc/rpc-client';
import { RpcController, RpcHandler } from './rpc/rpc-handler.decorators';

class EchoDto {
  @IsInt()
  @Min(0)
  n!: number;
}

class WhenDto {
  @IsString()
  at!: string;
}

class Empty {}
interface Echoed {
  n: number;
  isDto: boolean;
  keys: string[];
  user?: string;
  at: string;
}

const Echo = rpc<EchoDto, Echoed>('test.echo.call', EchoDto);
const Fail = rpc<Empty, never>('test.fail.call', Empty);
const Crash = rpc<Empty, never>('test.crash.call', Empty);
const Slow = rpc<Empty, string>('test.slow.call', Empty);
const Nobody = rpc<Empty, never>('test.nobody.call', Empty);
const Who = rpc<Empty, string>('test.who.call', Empty);
const When = rpc<WhenDto, string>('test.when.call', WhenDto);
const Shared = rpc<Empty, { list: number[] }>('test.shared.call', Empty);
const TailText = rpc<Empty, TailedReply<{ at: string }>>('test.tail-text.call', Empty);
const TailBytes = rpc<Empty, TailedReply<{ at: string }>>('test.tail-bytes.call', Empty);
const TAIL = '{"a":"line\\none"},{"é":"€"}\n';
const TAIL_BYTES = Buffer.from(TAIL);

/** One object the handler hands out on every call, as a cache would. */
const SHARED = { list: [1, 2] };

@RpcController()
class TestHandler {
  // The reply's `at` is a Date here and an ISO string at the caller: the wire is JSON.
  @RpcHandler(Echo)
  echo(dto: EchoDto, ctx: RequestContext): Echoed {
    return {
      n: dto.n * 2,
      isDto: dto instanceof EchoDto,
      keys: Object.keys(dto),
      user: ctx.userName,
      at: new Date(0) as unknown as string,
    };
  }

  @RpcHandler(When)
  when(dto: WhenDto): string {
    return `${typeof dto.at} ${dto.at}`;
  }

  @RpcHandler(Shared)
  shared(): { list: number[] } {
    return SHARED;
  }

  @RpcHandler(TailText)
  tailText(): TailedReply<{ at: string }> {
    return new TailedReply({ at: new Date(0) as unknown as string }, TAIL);
  }

  @RpcHandler(TailBytes)
  tailBytes(): TailedReply<{ at: string }> {
    return new TailedReply({ at: new Date(0) as unknown as string }, TAIL_BYTES);
  }

  @RpcHandler(Fail)
  fail(): never {
    throw new ConflictError('already there', 'THING_EXISTS');
  }

  @RpcHandler(Crash)
  crash(): never {
    throw new Error('secret internal detail');
  }

  @RpcHandler(Slow)
  async slow(): Promise<string> {
    await new Promise((r) => setTimeout(r, 500));
    return 'late';
  }
}

const REPLICA = Symbol('REPLICA');

@RpcController()
class ReplicaHandler {
  constructor(@Inject(REPLICA) private readonly name: string) {}

  @RpcHandler(Who)
  who(): string {
    return this.name;
  }
}

/** Keeps what the app logged at error level, to find an error id in it. */
class CapturingLogger implements LoggerService {
  readonly errors: string[] = [];
  log(): void {
    // Only errors matter here.
  }
  warn(): void {
    // Only errors matter here.
  }
  error(...args: unknown[]): void {
    this.errors.push(JSON.stringify(args));
  }
}

@Module({})
class TestRoot {}

async function serve(
  mode: BusMode,
  controllers: DynamicModule['controllers'],
  extra: DynamicModule['providers'] = [],
  storeUrl?: string,
) {
  const logger = new CapturingLogger();
  const root: DynamicModule = {
    module: TestRoot,
    // The in-process mode's event bus needs a store even where only RPC is tested: a scratch database.
    imports: [
      MessagingModule.forRoot({ mode, rpcTimeoutMs: 5000, name: 'rpc-test', store: { databaseUrl: storeUrl } }),
    ],
    controllers,
    providers: extra,
  };
  const app: INestApplicationContext = await NestFactory.createApplicationContext(root, {
    logger,
    abortOnError: false,
  });
  await app.init();
  await app.get(RpcServer).listen('rpc-test');
  return { app, logger };
}

const ctx: RequestContext = {
  requestId: 'r1',
  userName: 'alice',
  userId: '0123456789abcdef01234567',
  tokenRole: 'write',
};

interface Setup {
  client: RpcClient;
  logger: CapturingLogger;
  close: () => Promise<void>;
}

/** The same handler contract over NATS and in-process: services are written once. */
function rpcContract(name: string, setup: () => Promise<Setup>): void {
  describe(name, () => {
    let s: Setup;
    beforeAll(async () => (s = await setup()));
    afterAll(() => s.close());

    it('validates the payload into the DTO, strips unknown fields and carries the context', async () => {
      const data = { n: 21, extra: 'dropped' } as EchoDto;
      await expect(s.client.call(Echo, data, ctx)).resolves.toEqual({
        n: 42,
        isDto: true,
        keys: ['n'],
        user: 'alice',
        at: '1970-01-01T00:00:00.000Z',
      });
    });

    it('hands the handler the payload as the wire carries it: a Date is its ISO string', async () => {
      const data = { at: new Date(0) } as unknown as WhenDto;
      await expect(s.client.call(When, data, ctx)).resolves.toBe('string 1970-01-01T00:00:00.000Z');
    });

    it('shares no object between the handler and its caller', async () => {
      const first = await s.client.call(Shared, {}, ctx);
      first.list.push(3);
      await expect(s.client.call(Shared, {}, ctx)).resolves.toEqual({ list: [1, 2] });
      expect(SHARED).toEqual({ list: [1, 2] });
    });

    it('carries a tailed reply: its head as JSON gives it, its tail as it is, a copy of bytes', async () => {
      const text = await s.client.call(TailText, {}, ctx);
      expect(text).toBeInstanceOf(TailedReply);
      expect(text.head).toEqual({ at: '1970-01-01T00:00:00.000Z' });
      expect(Buffer.from(text.tail).toString('utf8')).toBe(TAIL);
      const bytes = await s.client.call(TailBytes, {}, ctx);
      expect(bytes.head).toEqual({ at: '1970-01-01T00:00:00.000Z' });
      expect(bytes.tail).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(bytes.tail).equals(TAIL_BYTES)).toBe(true);
      expect(bytes.tail).not.toBe(TAIL_BYTES);
    });

    it('rejects an invalid payload with a 400 naming the field', async () => {
      await expect(s.client.call(Echo, { n: -1 }, ctx)).rejects.toMatchObject({
        status: 400,
        message: expect.stringMatching(/^n must not be less than 0/),
      });
      await expect(s.client.call(Echo, 'nope' as unknown as EchoDto, ctx)).rejects.toMatchObject({
        status: 400,
        message: expect.stringMatching(/payload must be an object/),
      });
    });

    it.each([
      ['an empty requestId', { requestId: '' }, /ctx\.requestId/],
      [
        'a userId that is not an object id',
        { requestId: 'r1', userId: 'alice' },
        /ctx\.userId must be a 24-character hex id/,
      ],
      ['an upper-case tokenId', { requestId: 'r1', tokenId: '0123456789ABCDEF01234567' }, /ctx\.tokenId/],
      [
        'an unknown tokenRole',
        { requestId: 'r1', tokenRole: 'root' },
        /ctx\.tokenRole must be one of read, write, fineGrained/,
      ],
      ['a 97-character userName', { requestId: 'r1', userName: 'x'.repeat(97) }, /ctx\.userName/],
      ['a 301-character userAgent', { requestId: 'r1', userAgent: 'x'.repeat(301) }, /ctx\.userAgent/],
      ['admin as a string', { requestId: 'r1', admin: 'yes' }, /ctx\.admin/],
    ])('rejects a context with %s with a 400 naming the field', async (_, bad, message) => {
      await expect(s.client.call(Echo, { n: 1 }, bad as RequestContext)).rejects.toMatchObject({
        status: 400,
        code: 'INVALID_CONTEXT',
        message,
      });
    });

    it('carries a service error as its envelope', async () => {
      const err = await s.client.call(Fail, {}, ctx).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HubError);
      expect(err).toMatchObject({ status: 409, code: 'THING_EXISTS', message: 'already there' });
    });

    it('turns an unknown error into a 500 without its details, its id in the log', async () => {
      const err = await s.client.call(Crash, {}, ctx).catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 500, code: 'INTERNAL' });
      const message = String((err as Error).message);
      expect(message).not.toContain('secret');
      const errorId = /id ([0-9a-f-]{36})/.exec(message)?.[1];
      expect(errorId).toBeDefined();
      expect(s.logger.errors.some((line) => line.includes(errorId ?? '?') && line.includes('test.crash.call'))).toBe(
        true,
      );
    });

    it('times out as a 504', async () => {
      await expect(s.client.call(Slow, {}, ctx, { timeoutMs: 100 })).rejects.toMatchObject({ status: 504 });
    });

    it('answers 503 at once when no service listens', async () => {
      const started = Date.now();
      await expect(s.client.call(Nobody, {}, ctx)).rejects.toMatchObject({
        status: 503,
        message: expect.stringMatching(/not available/),
      });
      expect(Date.now() - started).toBeLessThan(1000);
    });
  });
}

describeWithInfra('in-process (the bus store on Postgres)', () => {
  rpcContract('in-process transport', async () => {
    const broker = new InProcessBroker();
    const db: TestDatabase = await createTestDatabase();
    const { app, logger } = await serve({ kind: 'in-process', broker }, [TestHandler], [], db.url);
    return {
      client: new InProcessRpcClient(broker, 5000),
      logger,
      close: async () => {
        await app.close();
        await db.drop();
      },
    };
  });
});

describeWithInfra('over real NATS', () => {
  rpcContract('NATS transport', async () => {
    const { app, logger } = await serve({ kind: 'nats', url: NATS_URL_FOR_TESTS }, [TestHandler]);
    const nc: NatsConnection = await connect({ servers: NATS_URL_FOR_TESTS });
    return {
      client: new NatsRpcClient(nc, 5000),
      logger,
      close: async () => {
        await nc.drain();
        await app.close();
      },
    };
  });

  it('a request in flight when a replica stops is still answered: its stop waits for the handler and the reply', async () => {
    const { app } = await serve({ kind: 'nats', url: NATS_URL_FOR_TESTS }, [TestHandler]);
    const nc = await connect({ servers: NATS_URL_FOR_TESTS });
    try {
      const client = new NatsRpcClient(nc, 5000);
      const answer = client.call(Slow, {}, ctx);
      // The handler takes 500 ms; the replica is told to stop while it runs (a rolling update).
      await new Promise((r) => setTimeout(r, 100));
      const stopped = app.close();
      expect(await answer).toBe('late');
      await stopped;
      await expect(client.call(Slow, {}, ctx)).rejects.toMatchObject({ status: 503 });
    } finally {
      await nc.drain();
    }
  });

  it('shares the requests of one subject between two replicas in the queue group', async () => {
    const replicas = await Promise.all(
      ['one', 'two'].map((name) =>
        serve({ kind: 'nats', url: NATS_URL_FOR_TESTS }, [ReplicaHandler], [{ provide: REPLICA, useValue: name }]),
      ),
    );
    const nc = await connect({ servers: NATS_URL_FOR_TESTS });
    try {
      const client = new NatsRpcClient(nc, 5000);
      const answers = await Promise.all(Array.from({ length: 200 }, () => client.call(Who, {}, ctx)));
      const count = (name: string) => answers.filter((a) => a === name).length;
      // Each request is answered once, by one replica; NATS picks one at random, so 200 split
      // about evenly (fewer than 40 on one side: odds below 1e-17).
      expect(count('one') + count('two')).toBe(200);
      expect(Math.min(count('one'), count('two'))).toBeGreaterThan(40);
    } finally {
      await nc.drain();
      await Promise.all(replicas.map((r) => r.app.close()));
    }
  });
});
