import { assertInjectedResponse, describeWithInfra } from '@hub/testing';
import { startTestHub, type TestHub } from './testing/test-hub';

describeWithInfra('rate limits', () => {
  let t: TestHub;

  beforeAll(async () => {
    t = await startTestHub({ HUB_ADMIN_TOKEN: 'rate-limit-admin-token-0001', HUB_REVOKE_RATE_LIMIT_PER_MINUTE: '3' });
  });

  afterAll(() => t?.close());

  it('limits the public revoke per address and says so in RateLimit headers', async () => {
    const revoke = async (ip: string) => {
      const res = await t.fastify.inject({
        method: 'POST',
        url: '/api/credentials/revoke',
        remoteAddress: ip,
        payload: { credentials: ['hf_x'] },
      });
      await assertInjectedResponse(t.fastify, { method: 'POST', url: '/api/credentials/revoke' }, res);
      return res;
    };
    // The windows are fixed minutes of the clock: four requests straddling a minute's end would
    // count in two windows, so they start early in one (at most 20 s of waiting).
    const leftMs = 60_000 - (Date.now() % 60_000);
    if (leftMs < 20_000) await new Promise((r) => setTimeout(r, leftMs + 50));
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
