import { http } from '../http-client';
import { type TestUser, uniqueName } from '../hub-factory';
import { type WebhooksScenarioTarget } from './webhooks.scenarios';

type Body = Record<string, unknown>;

/** A payload v3 as the repo area would publish it. */
export function repoEvent(repo: string, scope = 'repo.content', action = 'update', type = 'model'): Body {
  const [owner] = repo.split('/');
  const payload: Body = {
    event: { action, scope },
    repo: {
      type,
      name: repo,
      id: '0123456789abcdef01234567',
      private: false,
      url: { web: `http://hub.test/${repo}`, api: `http://hub.test/api/models/${repo}` },
      owner: { id: owner },
    },
  };
  if (scope.startsWith('discussion')) {
    payload['discussion'] = {
      id: 'abcdefabcdefabcdefabcdef',
      num: 1,
      title: 't',
      url: { web: 'http://hub.test/d', api: 'http://hub.test/api/d' },
      status: 'open',
      author: { id: 'x' },
      isPullRequest: false,
    };
    // Who acted: the published schema of discussion events requires it (/admin/events checks it).
    payload['actor'] = { _id: 'abcdefabcdefabcdefabcd01', avatar: 'http://hub.test/avatar.png', user: owner };
  }
  return payload;
}

/**
 * The sum over replicas of a metric's samples carrying `labels` (the app adds labels of its own,
 * e.g. `app`), or null when no replica reports one.
 */
export function metricSum(texts: string[], name: string, labels: Record<string, string> = {}): number | null {
  let sum: number | null = null;
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const text of texts) {
    for (const line of text.split('\n')) {
      const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)$/.exec(line);
      if (!m || m[1] !== name || !wanted.every((w) => (m[2] ?? '').includes(w))) continue;
      sum = (sum ?? 0) + Number(m[3]);
    }
  }
  return sum;
}

/** Published and delivered one at a time: no more than `limit` reach the receiver in 24 h. */
export async function expectDailyLimit(t: WebhooksScenarioTarget, user: TestUser, limit: number): Promise<void> {
  const repo = `${user.name}/${uniqueName('busy')}`;
  const created = await http<{ webhook: { id: string } }>(t.baseUrl, 'POST', '/api/settings/webhooks', {
    token: user.token,
    body: { watched: [{ type: 'model', name: repo }], domains: ['repo'], url: t.capture.url('/busy') },
  });
  expect(created.status).toBe(200);
  for (let i = 0; i < limit + 3; i++) {
    const res = await http(t.baseUrl, 'POST', '/admin/events', {
      token: t.adminToken,
      body: { subject: 'hub.events.repo.update', payload: repoEvent(repo, 'repo.content', `busy-${i}`) },
    });
    expect(res.status).toBeLessThan(300);
  }
  await t.capture.waitFor('/busy', limit);
  await new Promise((r) => setTimeout(r, 1000));
  expect(
    t.capture
      .at('/busy')
      .map((d) => String((d.json['event'] as Body)['action']))
      .sort(),
  ).toEqual(Array.from({ length: limit }, (_, i) => `busy-${i}`).sort());
}

/** A webhook as the management API answers it. */
export interface WebhookJson {
  id: string;
  disabled: boolean | string;
  hasSecret: boolean;
  url?: string;
  watched: Body[];
  domains: string[];
  lastTriggerAt?: string;
}

/** The calls the webhooks scenarios make: the management API, publishing an event, a capture URL, a log page. */
export function webhooksClient(t: () => WebhooksScenarioTarget) {
  const api = <T = Body>(user: TestUser, method: string, path: string, body?: unknown) =>
    http<T>(t().baseUrl, method, `/api/settings/webhooks${path}`, { token: user.token, body });
  const create = async (user: TestUser, body: Body): Promise<WebhookJson> => {
    const res = await api<{ webhook: WebhookJson }>(user, 'POST', '', body);
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
    return res.body.webhook;
  };
  const publish = async (subject: string, payload: Body): Promise<void> => {
    const res = await http(t().baseUrl, 'POST', '/admin/events', { token: t().adminToken, body: { subject, payload } });
    expect(res.status).toBeLessThan(300);
  };
  const hook = (name: string): string => t().capture.url(`/${name}`);
  const logsOf = async (user: TestUser, id: string) => (await api<Body[]>(user, 'GET', `/${id}/logs?limit=100`)).body;
  return { api, create, publish, hook, logsOf };
}
