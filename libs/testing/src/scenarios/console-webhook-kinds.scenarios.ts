import { http } from '../http-client';
import { makeUser, uniqueName } from '../hub-factory';
import { type ConsoleBrowser, noViolations, shot, signedIn } from './console-page';

interface Hook {
  id: string;
  url?: string;
  job?: {
    dockerImage?: string;
    command?: string[];
    flavor: string;
    environment: Record<string, string>;
    secrets?: string[];
  };
  jobSourceId?: string;
  watched: { name: string }[];
}

/** The webhook form's other kinds (spec 2.4, 4.6): a webhook that runs a job, and one that runs a copy of a job. */
export function consoleWebhookKindsScenarios(c: ConsoleBrowser): void {
  it("creates a webhook that runs a job, keeps its kind and secrets on edit, shows the API's refusal at the field, and one that copies a job", async () => {
    const owner = await makeUser(c.t());
    const repo = `${owner.name}/${uniqueName('repo')}`;
    const hooks = async (): Promise<Hook[]> =>
      (await http<Hook[]>(c.t().baseUrl, 'GET', '/api/settings/webhooks', { token: owner.token })).body;
    const { page, csp } = await signedIn(c, owner.token);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByRole('button', { name: 'New webhook' }).click();
    // The kind is a radio group: the arrow keys move through it.
    await page.getByLabel('Post to a URL', { exact: true }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByLabel('Run a job', { exact: true }).isChecked()).resolves.toBe(true);
    await page.getByLabel('Docker image', { exact: true }).fill('alpine:3');
    await page.getByLabel(/^Command/).fill('sh\n-c\necho $WEBHOOK_REPO_ID');
    await page.getByLabel('Flavor').selectOption('cpu-upgrade');
    await page.getByLabel(/^Environment/).fill('MODE=check');
    await page.getByLabel(/^Secrets/).fill('API_KEY=s3cret');
    await page.getByLabel('Watched items').fill(`model:${repo}`);
    await noViolations(page, 'webhooks, job form');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByText('Webhook created').waitFor();
    const row = page.getByRole('row').filter({ hasText: 'job alpine:3' });
    await row.waitFor();
    const [made] = await hooks();
    expect(made).toMatchObject({
      job: {
        dockerImage: 'alpine:3',
        command: ['sh', '-c', 'echo $WEBHOOK_REPO_ID'],
        flavor: 'cpu-upgrade',
        environment: { MODE: 'check' },
        secrets: ['API_KEY'],
      },
    });
    expect(made?.url).toBeUndefined();

    // Its page: the form shows the kind and the job, the secret by name only.
    await row.getByRole('link').click();
    await page.getByRole('heading', { name: 'Webhook job alpine:3' }).waitFor();
    await expect(page.getByLabel('Run a job', { exact: true }).isChecked()).resolves.toBe(true);
    await expect(page.getByLabel('Docker image', { exact: true }).inputValue()).resolves.toBe('alpine:3');
    await expect(page.getByLabel(/^Secrets/).inputValue()).resolves.toBe('');
    await page.getByText(/set now API_KEY/).waitFor();
    await noViolations(page, 'webhook page, job form');
    await shot(page, 'webhook-job');
    // Another watched item only: the job is kept whole, its secret with it.
    const other = `${owner.name}/${uniqueName('repo')}`;
    await page.getByLabel('Watched items').fill(`model:${repo}, model:${other}`);
    await page.getByRole('button', { name: 'Save webhook' }).click();
    await page.getByText('Saved', { exact: true }).waitFor();
    expect((await hooks())[0]).toMatchObject({
      watched: [{ name: repo }, { name: other }],
      job: { secrets: ['API_KEY'] },
    });

    // A changed job without its secrets typed again would lose them: the form says so and sends nothing.
    await page.getByLabel(/^Command/).fill('sh\n-c\necho changed');
    await page.getByRole('button', { name: 'Save webhook' }).click();
    await page.getByText(/secrets \(API_KEY\) are never shown again/).waitFor();
    // The API's refusal, next to the form and on the field it names.
    await page.getByLabel(/^Environment/).fill('1BAD=x');
    await page.getByLabel(/^Secrets/).fill('API_KEY=n3w');
    await page.getByRole('button', { name: 'Save webhook' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^400: job\.environment key "1BAD" must/ })
      .waitFor();
    const env = page.getByLabel(/^Environment/);
    await expect(env.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(env.getAttribute('aria-describedby')).resolves.toBe('webhook-form-error');
    await noViolations(page, 'webhook page, refused');
    await env.fill('MODE=again');
    await page.getByRole('button', { name: 'Save webhook' }).click();
    await page.getByText('Saved', { exact: true }).waitFor();
    await expect(env.getAttribute('aria-invalid')).resolves.toBeNull();
    expect((await hooks())[0]?.job).toMatchObject({
      command: ['sh', '-c', 'echo changed'],
      environment: { MODE: 'again' },
      secrets: ['API_KEY'],
    });

    // A copy of an existing job: an unknown id is the API's 404, the real one is kept as jobSourceId.
    const source = await http<{ id: string }>(c.t().baseUrl, 'POST', `/api/jobs/${owner.name}`, {
      token: owner.token,
      body: { dockerImage: 'alpine:3', command: ['sh', '-c', 'true'], flavor: 'cpu-basic' },
    });
    expect(source.status).toBe(200);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByRole('button', { name: 'New webhook' }).click();
    await page.getByLabel('Run a copy of an existing job', { exact: true }).check();
    const sourceField = page.getByLabel('Source job id');
    await sourceField.fill('0'.repeat(24));
    await page.getByLabel('Watched items').fill(`model:${repo}`);
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^404: Job 0{24} not found/ })
      .waitFor();
    await sourceField.fill(source.body.id);
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByText('Webhook created').waitFor();
    await page
      .getByRole('row')
      .filter({ hasText: `copy of job ${source.body.id}` })
      .waitFor();
    expect((await hooks()).find((h) => h.jobSourceId)).toMatchObject({ jobSourceId: source.body.id });
    expect(csp).toEqual([]);
    await page.close();
  }, 90_000);
}
