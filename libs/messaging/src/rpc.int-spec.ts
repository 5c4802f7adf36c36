import { type INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Transport } from '@nestjs/microservices';
import { connect, type NatsConnection } from 'nats';
import { IsInt, Min } from 'class-validator';
import { ConflictError, HubError, type RequestContext, rpc } from '@hub/contracts';
import { describeWithInfra, NATS_URL_FOR_TESTS } from '@hub/testing';
import { InProcessBroker } from './in-process/in-process-broker';
import { InProcessRpcClient } from './in-process/in-process-rpc-client';
import { InProcessServer } from './in-process/in-process.server';
import { NatsRpcClient } from './rpc/nats-rpc-client';
import { RpcController, RpcCtx, RpcPayload } from './rpc/rpc-handler.decorators';
import { type RpcClient } from './rpc/rpc-client';

class EchoDto {
  @IsInt() @Min(0)
  n!: number;
}

class Empty {}
interface Echoed { n: number; isDto: boolean; user?: string; at: string }

const Echo = rpc<EchoDto, Echoed>('test.echo.call', EchoDto);
const Fail = rpc<Empty, never>('test.fail.call', Empty);
const Crash = rpc<Empty, never>('test.crash.call', Empty);
const Slow = rpc<Empty, string>('test.slow.call', Empty);
const Nobody = rpc<Empty, never>('test.nobody.call', Empty);

@RpcController()
class TestHandler {
  @MessagePattern(Echo.subject)
  echo(@RpcPayload() dto: EchoDto, @RpcCtx() ctx: RequestContext): { n: number; isDto: boolean; user?: string; at: Date } {
    return { n: dto.n * 2, isDto: dto instanceof EchoDto, user: ctx.userName, at: new Date(0) };
  }

  @MessagePattern(Fail.subject)
  fail(): never {
    throw new ConflictError('already there', 'THING_EXISTS');
  }

  @MessagePattern(Crash.subject)
  crash(): never {
    throw new Error('secret internal detail');
  }

  @MessagePattern(Slow.subject)
  async slow(): Promise<string> {
    await new Promise((r) => setTimeout(r, 500));
    return 'late';
  }
}

@Module({ controllers: [TestHandler] })
class TestModule {}

const ctx: RequestContext = { requestId: 'r1', userName: 'alice' };

/** The same handler contract over NATS and in-process: services are written once. */
function rpcContract(name: string, setup: () => Promise<{ client: RpcClient; close: () => Promise<void> }>): void {
  describe(name, () => {
    let client: RpcClient;
    let close: () => Promise<void>;
    beforeAll(async () => ({ client, close } = await setup()));
    afterAll(() => close());

    it('validates the payload into the DTO and carries the context', async () => {
      await expect(client.call(Echo, { n: 21 }, ctx)).resolves.toEqual({ n: 42, isDto: true, user: 'alice', at: '1970-01-01T00:00:00.000Z' });
    });

    it('rejects an invalid payload with a 400 naming the field', async () => {
      await expect(client.call(Echo, { n: -1 }, ctx)).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/^n must not be less than 0/) });
    });

    it('carries a service error as its envelope', async () => {
      const err = await client.call(Fail, {}, ctx).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HubError);
      expect(err).toMatchObject({ status: 409, code: 'THING_EXISTS', message: 'already there' });
    });

    it('turns an unknown error into a 500 without its details', async () => {
      const err = await client.call(Crash, {}, ctx).catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 500, code: 'INTERNAL' });
      expect(String((err as Error).message)).not.toContain('secret');
    });

    it('times out as a 504', async () => {
      await expect(client.call(Slow, {}, ctx, { timeoutMs: 100 })).rejects.toMatchObject({ status: 504 });
    });

    it('answers 503 at once when no service listens', async () => {
      const started = Date.now();
      await expect(client.call(Nobody, {}, ctx)).rejects.toMatchObject({ status: 503, message: expect.stringMatching(/not available/) });
      expect(Date.now() - started).toBeLessThan(1000);
    });
  });
}

rpcContract('in-process transport', async () => {
  const broker = new InProcessBroker();
  const app = await NestFactory.createMicroservice(TestModule, { strategy: new InProcessServer(broker), logger: false });
  await app.listen();
  return { client: new InProcessRpcClient(broker, 5000), close: () => app.close() };
});

describeWithInfra('over real NATS', () => {
  rpcContract('NATS transport', async () => {
    const app: INestMicroservice = await NestFactory.createMicroservice(TestModule, {
      transport: Transport.NATS,
      options: { servers: [NATS_URL_FOR_TESTS], queue: 'test' },
      logger: false,
    });
    await app.listen();
    const nc: NatsConnection = await connect({ servers: NATS_URL_FOR_TESTS });
    return {
      client: new NatsRpcClient(nc, 5000),
      close: async () => {
        await nc.drain();
        await app.close();
      },
    };
  });
});
