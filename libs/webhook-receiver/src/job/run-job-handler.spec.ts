import { repoPayload } from '../testing/payload.fixtures';
import { runJobHandler, type WebhookJobContext } from './run-job-handler';

describe('runJobHandler context', () => {
  async function contextFor(env: Record<string, string>): Promise<WebhookJobContext | undefined> {
    let seen: WebhookJobContext | undefined;
    const code = await runJobHandler((_payload, context) => void (seen = context), {
      env: { WEBHOOK_PAYLOAD: JSON.stringify(repoPayload()), ...env },
      exit: () => undefined,
      stdout: () => undefined,
    });
    expect(code).toBe(0);
    return seen;
  }

  it('takes repo id, type and secret from the job environment', async () => {
    expect(
      await contextFor({ WEBHOOK_REPO_ID: 'org/other', WEBHOOK_REPO_TYPE: 'dataset', WEBHOOK_SECRET: 's' }),
    ).toEqual({
      repoId: 'org/other',
      repoType: 'dataset',
      secret: 's',
    });
  });

  it('falls back to the payload when the variables are absent or not a repo type', async () => {
    expect(await contextFor({ WEBHOOK_REPO_TYPE: 'notebook', WEBHOOK_SECRET: '' })).toEqual({
      repoId: 'alice/tiny-model',
      repoType: 'model',
      secret: undefined,
    });
  });
});
