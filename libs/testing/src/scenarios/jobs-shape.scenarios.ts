import { http } from '../http-client';
import { makeUser } from '../hub-factory';
import { type JobTarget, waitForStage } from './jobs-helpers';

/** Spec 2.2 and the public clients' reads (huggingface_hub's JobInfo needs owner.type): nothing else (decision 0620). */
const JOB_KEYS = [
  'arguments',
  'command',
  'createdAt',
  'createdBy',
  'dockerImage',
  'durations',
  'environment',
  'expose',
  'finishedAt',
  'flavor',
  'id',
  'initiator',
  'labels',
  'owner',
  'resourceGroupId',
  'retry',
  'secrets',
  'spaceId',
  'startedAt',
  'status',
  'tags',
  'timeout',
  'type',
  'volumes',
  'arch',
];
const HARDWARE_KEYS = [
  'accelerator',
  'cpu',
  'ephemeralStorage',
  'name',
  'prettyName',
  'ram',
  'unitCostMicroUSD',
  'unitCostUSD',
  'unitLabel',
];

/** The job object and the hardware list as the public hub shows them: exactly these keys. */
export function jobsShapeScenarios(target: () => JobTarget): void {
  it('answers a job with the public fields only: timeout in seconds; no attempts, ssh, timeoutSeconds or updatedAt', async () => {
    const t = target();
    const user = await makeUser(t);
    const body = {
      dockerImage: 'alpine:3',
      flavor: 'cpu-basic',
      command: ['sh', '-c', 'exit 0'],
      timeoutSeconds: 600,
      attempts: 2,
      ssh: { enabled: true },
      expose: { ports: [8080] },
      labels: { team: 'a' },
    };
    const created = await http<Record<string, unknown>>(t.baseUrl, 'POST', `/api/jobs/${user.name}`, {
      token: user.token,
      body,
    });
    expect(created.status).toBe(200);
    const id = created.body['id'] as string;
    await waitForStage(t, user.token, user.name, id, ['COMPLETED', 'ERROR']);
    const got = await http<Record<string, unknown>>(t.baseUrl, 'GET', `/api/jobs/${user.name}/${id}`, {
      token: user.token,
    });
    const listed = await http<Record<string, unknown>[]>(t.baseUrl, 'GET', `/api/jobs/${user.name}`, {
      token: user.token,
    });
    for (const job of [created.body, got.body, listed.body.find((j) => j['id'] === id) ?? {}]) {
      expect(Object.keys(job).filter((k) => !JOB_KEYS.includes(k))).toEqual([]);
      expect(job).toMatchObject({ timeout: 600, owner: { id: user.id, name: user.name, type: 'user' } });
      for (const gone of ['attempts', 'ssh', 'timeoutSeconds', 'updatedAt']) expect(job).not.toHaveProperty(gone);
      expect(Object.keys(job['status'] as object).sort()).toEqual([
        'exposeUrls',
        'failureCount',
        'message',
        'sshUrl',
        'stage',
      ]);
    }
  });

  it('lists the hardware with exactly name, prettyName, cpu, ram, ephemeralStorage, accelerator and the unit cost', async () => {
    const t = target();
    const user = await makeUser(t);
    const res = await http<Record<string, unknown>[]>(t.baseUrl, 'GET', '/api/jobs/hardware', { token: user.token });
    expect(res.status).toBe(200);
    for (const item of res.body) {
      expect(Object.keys(item).sort()).toEqual(HARDWARE_KEYS);
      expect(item['ephemeralStorage']).toMatch(/^\d+ GB$/);
      const acc = item['accelerator'] as Record<string, unknown> | null;
      if (acc !== null) {
        expect(Object.keys(acc).sort()).toEqual(['manufacturer', 'model', 'quantity', 'type', 'vram']);
        expect(['gpu', 'neuron']).toContain(acc['type']);
        expect(['Nvidia', 'AWS']).toContain(acc['manufacturer']);
      }
    }
    expect(res.body.find((h) => h['name'] === 'cpu-basic')).toMatchObject({
      accelerator: null,
      ephemeralStorage: '50 GB',
    });
    expect(res.body.find((h) => h['name'] === 'inf2x6')).toMatchObject({
      accelerator: { type: 'neuron', manufacturer: 'AWS', quantity: '6' },
    });
  });
}
