import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FastifyInstance } from 'fastify';
import { createTestDatabase, describeWithInfra, type TestDatabase } from '@hub/testing';
import { createHub, type Hub } from './create-hub';

describeWithInfra('rate limits', () => {
  let db: TestDatabase;
  let hub: Hub;
  let fastify: FastifyInstance;

  beforeAll(async () => {
    db = await createTestDatabase();
    hub = await createHub({
      DATABASE_URL: db.url, HUB_MIGRATE_ON_START: 'true', HUB_ADMIN_TOKEN: 'rate-limit-admin-token-0001',
      HUB_DATA_DIR: mkdtempSync(join(tmpdir(), 'hub-rl-')), HUB_REVOKE_RATE_LIMIT_PER_MINUTE: '3', LOG_LEVEL: 'fatal',
    });
    await hub.app.init();
    fastify = hub.app.getHttpAdapter().getInstance() as FastifyInstance;
    await fastify.ready();
  });

  afterAll(async () => {
    await hub?.app.close();
    await db?.drop();
  });

  it('limits the public revoke per address and says so in RateLimit headers', async () => {
    const revoke = (ip: string) =>
      fastify.inject({ method: 'POST', url: '/api/credentials/revoke', remoteAddress: ip, payload: { credentials: ['hf_x'] } });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await revoke('10.0.0.1'));
    expect(answers.map((a) => a.statusCode)).toEqual([202, 202, 202, 429]);
    expect(answers[0]?.headers['ratelimit']).toMatch(/^limit=3, remaining=2, reset=\d+$/);
    expect(answers[3]?.headers['ratelimit-policy']).toBe('3;w=60');
    expect(answers[3]?.headers['retry-after']).toMatch(/^\d+$/);
    expect(answers[3]?.json()).toEqual({ error: expect.stringMatching(/Too many requests: at most 3 per 60 s/) });
    // Another address has its own budget.
    expect((await revoke('10.0.0.2')).statusCode).toBe(202);
  });
});
