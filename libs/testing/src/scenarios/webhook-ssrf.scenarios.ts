import { http } from '../http-client';
import { makeUser, uniqueName } from '../hub-factory';
import { repoEvent } from './webhooks-helpers';
import { type WebhooksScenarioTarget } from './webhooks.scenarios';

type Body = Record<string, unknown>;

/**
 * IPv6 transition forms of loopback addresses (issue 22): with only 127.0.0.1/32 allowed, each is
 * refused before any connection, the receiver on loopback gets nothing. Only loopback forms here:
 * a passing guard would send the delivery to whatever route the machine has for them.
 */
export function webhookSsrfScenarios(target: () => WebhooksScenarioTarget): void {
  it.each([
    ['IPv4-compatible ::127.0.0.1', '::127.0.0.1'],
    ['SIIT ::ffff:0:127.0.0.2', '::ffff:0:127.0.0.2'],
    ['NAT64 64:ff9b::127.0.0.1', '64:ff9b::127.0.0.1'],
    ['6to4 of 127.0.0.1', '2002:7f00:1::1'],
    ['Teredo with client 127.0.0.1', '2001:0:4136:e378:8000:63bf:80ff:fffe'],
    ['site-local fec0::1', 'fec0::1'],
  ])('refuses %s although 127.0.0.1/32 is allowed, without sending anything', async (_what, address) => {
    const t = target();
    const user = await makeUser(t, 'write', 'ssrf');
    const repo = `${user.name}/${uniqueName('r')}`;
    const path = `/ssrf6-${uniqueName('p')}`;
    const created = await http<{ webhook: { id: string } }>(t.baseUrl, 'POST', '/api/settings/webhooks', {
      token: user.token,
      body: {
        watched: [{ type: 'model', name: repo }],
        domains: ['repo'],
        url: `http://[${address}]:${t.capture.port}${path}`,
      },
    });
    expect(created.status).toBe(200);
    const published = await http(t.baseUrl, 'POST', '/admin/events', {
      token: t.adminToken,
      body: { subject: 'hub.events.repo.update', payload: repoEvent(repo) },
    });
    expect(published.status).toBe(202);
    const deadline = Date.now() + 10_000;
    let logs: Body[] = [];
    while (logs.length === 0 && Date.now() < deadline) {
      logs = (
        await http<Body[]>(t.baseUrl, 'GET', `/api/settings/webhooks/${created.body.webhook.id}/logs`, {
          token: user.token,
        })
      ).body;
      if (logs.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(logs[0]).toMatchObject({ status: null, error: expect.stringMatching(/is a blocked address$/) });
    expect(t.capture.at(path)).toHaveLength(0);
  });
}
