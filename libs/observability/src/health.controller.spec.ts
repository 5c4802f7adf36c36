import { HttpException } from '@nestjs/common';
import { HealthController } from './health.controller';

describe('HealthController', () => {
  it('is ready when every check passes', async () => {
    const c = new HealthController([{ name: 'postgres', check: async () => undefined }]);
    await expect(c.ready()).resolves.toEqual({ status: 'ok', checks: { postgres: 'ok' } });
  });

  it('answers 503 naming the failing check', async () => {
    const c = new HealthController([
      { name: 'postgres', check: async () => undefined },
      { name: 'nats', check: async () => Promise.reject(new Error('connection closed')) },
    ]);
    const err = await c.ready().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpException);
    expect((err as HttpException).getStatus()).toBe(503);
    expect((err as HttpException).message).toBe('Not ready: nats failing: connection closed');
  });
});
