import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { repoContentPayload } from '../testing/payload.fixtures';

const ROOT = resolve(__dirname, '../../../..');
const FIXTURE = resolve(__dirname, '../testing/echo-job.fixture.ts');

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the fixture job in a real `node` process with exactly the given webhook variables. */
function runJob(env: Record<string, string>): Promise<Outcome> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', FIXTURE], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '', TS_NODE_PROJECT: resolve(__dirname, '../../tsconfig.lib.json'), ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

describe('runJobHandler in a real child process', () => {
  it('runs the handler with the payload and context, prints its JSON result and exits 0 (despite an open timer)', async () => {
    const payload = repoContentPayload();
    const outcome = await runJob({
      WEBHOOK_PAYLOAD: JSON.stringify(payload),
      WEBHOOK_REPO_ID: 'alice/tiny-model',
      WEBHOOK_REPO_TYPE: payload.repo.type,
      WEBHOOK_SECRET: 'job-secret',
    });
    expect(outcome).toEqual({
      code: 0,
      stdout:
        'handling repo.content.update on model alice/tiny-model\n{"handled":"alice/tiny-model","hasSecret":true}\n',
      stderr: '',
    });
  });

  it('exits 2 with a clear message when WEBHOOK_PAYLOAD is missing', async () => {
    const outcome = await runJob({});
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toBe(
      'WEBHOOK_PAYLOAD is not set: this script expects to run as a webhook job, with the delivery payload in that variable.\n',
    );
    expect(outcome.stdout).toBe('');
  });

  it('exits 2 naming the problem when WEBHOOK_PAYLOAD is not JSON or not a payload', async () => {
    const notJson = await runJob({ WEBHOOK_PAYLOAD: '{"event":' });
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/^WEBHOOK_PAYLOAD is not valid JSON: /);
    const notPayload = await runJob({
      WEBHOOK_PAYLOAD: JSON.stringify({ event: { action: 'update', scope: 'repo' }, repo: { type: 'notebook' } }),
    });
    expect(notPayload.code).toBe(2);
    expect(notPayload.stderr).toBe(
      'WEBHOOK_PAYLOAD is not a webhook payload: repo.type must be one of dataset, model, space, bucket, kernel\n',
    );
  });

  it('exits 1 and reports the error when the handler throws', async () => {
    const outcome = await runJob({ WEBHOOK_PAYLOAD: JSON.stringify(repoContentPayload()), FIXTURE_THROW: '1' });
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(/^Webhook job handler failed: Error: the job could not finish/);
    expect(outcome.stdout).toBe('');
  });
});
