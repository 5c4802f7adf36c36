import { http } from '../http-client';
import { type HubTarget, makeUser } from '../hub-factory';

type Json = Record<string, unknown>;

/**
 * A job webhook answers the job it starts (spec 2.4/2.5), given inline or by `jobSourceId`, on
 * create, get, list and update (issue 37 item 3): huggingface_hub's WebhookInfo reads `job`.
 * Needs the jobs and webhooks services behind one gateway.
 */
export function webhookJobViewScenarios(target: () => HubTarget): void {
  it('a webhook created with jobSourceId answers that job (image, command, arguments, environment, flavor, timeoutSeconds, labels)', async () => {
    const t = target();
    const user = await makeUser(t);
    const source = await http<Json>(t.baseUrl, 'POST', `/api/jobs/${user.name}`, {
      token: user.token,
      body: {
        dockerImage: 'alpine:3',
        flavor: 'cpu-basic',
        command: ['sh', '-c', 'echo "$WEBHOOK_PAYLOAD"'],
        arguments: ['x'],
        environment: { MODE: 'hook' },
        secrets: { TOKEN: 'never-shown' },
        timeoutSeconds: 300,
        labels: { team: 'ml' },
      },
    });
    expect(source.status).toBe(200);
    const job = {
      dockerImage: 'alpine:3',
      command: ['sh', '-c', 'echo "$WEBHOOK_PAYLOAD"'],
      arguments: ['x'],
      environment: { MODE: 'hook' },
      flavor: 'cpu-basic',
      timeoutSeconds: 300,
      labels: { team: 'ml' },
    };
    const body = {
      watched: [{ type: 'model', name: `${user.name}/m` }],
      domains: ['repo'],
      jobSourceId: source.body['id'],
    };
    const api = <T = Json>(method: string, path: string, b?: unknown) =>
      http<T>(t.baseUrl, method, `/api/settings/webhooks${path}`, { token: user.token, body: b });
    const created = await api<{ webhook: Json }>('POST', '', body);
    expect(created.status).toBe(200);
    // Secrets of a source job are not copied (decision 0501): the job answered has none.
    expect(created.body.webhook).toMatchObject({ jobSourceId: source.body['id'] });
    expect(created.body.webhook['job']).toEqual(job);
    const id = created.body.webhook['id'] as string;
    expect((await api<{ webhook: Json }>('GET', `/${id}`)).body.webhook['job']).toEqual(job);
    expect((await api<Json[]>('GET', '')).body.find((w) => w['id'] === id)?.['job']).toEqual(job);
    const updated = await api<{ webhook: Json }>('POST', `/${id}`, { ...body, domains: ['repo', 'discussion'] });
    expect(updated.status).toBe(200);
    expect(updated.body.webhook).toMatchObject({ domains: ['repo', 'discussion'], job });
    expect((await api<{ webhook: Json }>('POST', `/${id}/disable`)).body.webhook['job']).toEqual(job);

    // Given inline, the job is answered as stored: secret names, never values.
    const inline = await api<{ webhook: Json }>('POST', '', {
      watched: [{ type: 'model', name: `${user.name}/n` }],
      domains: ['repo'],
      job: { dockerImage: 'alpine:3', flavor: 'cpu-basic', command: ['true'], secrets: { TOKEN: 'hidden' } },
    });
    expect(inline.body.webhook['job']).toEqual({
      dockerImage: 'alpine:3',
      flavor: 'cpu-basic',
      command: ['true'],
      environment: {},
      timeoutSeconds: null,
      secrets: ['TOKEN'],
    });
  });
}
