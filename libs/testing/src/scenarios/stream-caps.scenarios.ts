import { http } from '../http-client';
import { makeToken, makeUser } from '../hub-factory';
import { type AccessTarget, cancelJob, openSse, type OpenSse, runLoopingJob } from './access-helpers';

/** The gateway's defaults (GatewayConfig): HUB_STREAMS_MAX_PER_TOKEN and HUB_STREAMS_MAX_PER_USER. */
const PER_TOKEN = 16;
const PER_USER = 32;

/**
 * Issue 43 item 4 (decision 0505): open job streams per token and per user are capped on each
 * gateway; past a cap a 429 naming it; a closed stream gives its slot back. Both run modes, where a
 * jobs service runs.
 */
export function streamCapScenarios(target: () => AccessTarget): void {
  describe('open streams per user and per token (issue 43)', () => {
    it(`a token holds at most ${PER_TOKEN} streams and a user ${PER_USER}; past it 429 naming the cap; a closed stream frees its slot`, async () => {
      const t = target();
      const gateway = t.gateways[0];
      const user = await makeUser(t, 'write', 'streams');
      const job = await runLoopingJob(t, user.token, user.name);
      const url = `${gateway}/api/jobs/${user.name}/${job}/metrics`;
      const second = (await makeToken(t, user.name)).token;
      const third = (await makeToken(t, user.name)).token;
      const open: OpenSse[] = [];
      try {
        for (let i = 0; i < PER_TOKEN; i++) open.push(await openSse(url, user.token));
        const byToken = await http<{ error: string }>(gateway, 'GET', `/api/jobs/${user.name}/${job}/metrics`, {
          token: user.token,
        });
        expect({ status: byToken.status, body: byToken.body }).toEqual({
          status: 429,
          body: {
            error: `This token has ${PER_TOKEN} streams open on this gateway: the limit is ${PER_TOKEN} (HUB_STREAMS_MAX_PER_TOKEN); close one first`,
          },
        });
        // Another user's streams and other requests of this one are not affected.
        expect((await http(gateway, 'GET', '/api/whoami-v2', { token: user.token })).status).toBe(200);

        for (let i = 0; i < PER_USER - PER_TOKEN; i++) open.push(await openSse(url, second));
        const byUser = await http<{ error: string }>(gateway, 'GET', `/api/jobs/${user.name}/${job}/logs`, {
          token: third,
        });
        expect({ status: byUser.status, error: byUser.body.error }).toEqual({
          status: 429,
          error: expect.stringContaining(`the limit is ${PER_USER} (HUB_STREAMS_MAX_PER_USER)`),
        });

        // A stream the client closes gives its slot back (the gateway sees the close on its next write or poll).
        open.shift()?.abort();
        const deadline = Date.now() + 20_000;
        let again: OpenSse | undefined;
        while (!again && Date.now() < deadline) {
          again = await openSse(url, third).catch(() => undefined);
          if (!again) await new Promise((r) => setTimeout(r, 100));
        }
        expect(again).toBeDefined();
        if (again) open.push(again);
      } finally {
        open.forEach((s) => s.abort());
        await cancelJob(t, user.token, user.name, job);
      }
    }, 90_000);
  });
}
