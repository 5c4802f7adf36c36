import { cancelJob, getJob, runJob } from '@huggingface/hub';
import { makeUser } from '../hub-factory';
import { TEST_JOB_IMAGE } from '../job-engine';
import { type JobTarget, waitAllEnded, waitForStage } from './jobs-helpers';

/** Small caps so a test reaches them: 3 jobs at once on the runner, 2 per namespace. */
export const JOB_ADMISSION_TEST_ENV = {
  HUB_JOBS_MAX_RUNNING: '3',
  HUB_JOBS_MAX_RUNNING_PER_NAMESPACE: '2',
};

/** Polls a job until `check` holds of it (or fails after `ms`, showing the job). */
async function waitFor(
  t: JobTarget,
  token: string,
  namespace: string,
  jobId: string,
  check: (job: Awaited<ReturnType<typeof getJob>>) => boolean,
  ms = 20_000,
): Promise<Awaited<ReturnType<typeof getJob>>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const job = await getJob({ namespace, jobId, accessToken: token, hubUrl: t.baseUrl });
    if (check(job)) return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId}: ${JSON.stringify(job.status)} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Runs `command` in the test image as `u`; the job's id. */
async function startJob(t: JobTarget, u: { name: string; token: string }, command: string[]): Promise<string> {
  const job = await runJob({
    namespace: u.name,
    accessToken: u.token,
    hubUrl: t.baseUrl,
    dockerImage: TEST_JOB_IMAGE,
    flavor: 'cpu-basic',
    command,
  });
  return job.id;
}

/**
 * HUB_JOBS_MAX_RUNNING and HUB_JOBS_MAX_RUNNING_PER_NAMESPACE (issue 25): waiting jobs stay
 * SCHEDULING, in order, saying why. Register it before other jobs scenarios on the same hub: it
 * expects no other job running on the runner.
 */
export function jobsAdmissionScenarios(target: () => JobTarget): void {
  it('runs at most the caps at once; the rest wait SCHEDULING in order, with a message naming the cap', async () => {
    const t = target();
    const [a, b] = [await makeUser(t), await makeUser(t)];
    const run = (u: typeof a) => startJob(t, u, ['sleep', '300']);
    const stage = (u: typeof a, id: string) =>
      getJob({ namespace: u.name, jobId: id, accessToken: u.token, hubUrl: t.baseUrl });
    const cancel = (u: typeof a, id: string) =>
      cancelJob({ namespace: u.name, jobId: id, accessToken: u.token, hubUrl: t.baseUrl });
    const all: [typeof a, string][] = [];
    try {
      const a1 = await run(a);
      const a2 = await run(a);
      const a3 = await run(a);
      all.push([a, a1], [a, a2], [a, a3]);
      await waitForStage(t, a.token, a.name, a1, ['RUNNING']);
      await waitForStage(t, a.token, a.name, a2, ['RUNNING']);
      const held = await waitFor(t, a.token, a.name, a3, (j) => !!j.status.message);
      expect(held.status.stage).toBe('SCHEDULING');
      expect(held.status.message).toMatch(/HUB_JOBS_MAX_RUNNING_PER_NAMESPACE=2/);
      // Another namespace is not held back by the first one's cap, until the runner's own cap.
      const b1 = await run(b);
      all.push([b, b1]);
      await waitForStage(t, b.token, b.name, b1, ['RUNNING']);
      const b2 = await run(b);
      const a4 = await run(a);
      all.push([b, b2], [a, a4]);
      const full = await waitFor(t, b.token, b.name, b2, (j) => !!j.status.message);
      expect(full.status).toMatchObject({
        stage: 'SCHEDULING',
        message: expect.stringMatching(/HUB_JOBS_MAX_RUNNING=3\b/),
      });
      // A slot frees: the first in line that fits takes it (a3 before b2 and a4).
      await cancel(a, a1);
      await waitForStage(t, a.token, a.name, a3, ['RUNNING']);
      expect((await stage(b, b2)).status.stage).toBe('SCHEDULING');
      expect((await stage(a, a4)).status.stage).toBe('SCHEDULING');
      // A waiting job canceled leaves the line; the next one gets the slot.
      await cancel(a, a4);
      await cancel(b, b1);
      await waitForStage(t, b.token, b.name, b2, ['RUNNING']);
      const gone = await stage(a, a4);
      // Never started: no startedAt at all (decision 0630).
      expect({ stage: gone.status.stage, startedAt: gone.startedAt }).toEqual({
        stage: 'CANCELED',
        startedAt: undefined,
      });
    } finally {
      for (const [u, id] of all) await cancel(u, id).catch(() => undefined);
    }
  });

  it('ends every job whose command exits at once, each with its own exit code (none left RUNNING)', async () => {
    // A container that exits before the runner waits on it must still be seen to exit (the race
    // of 16a7c16: a job of `sh -c 'exit 0'` stayed RUNNING). Twelve at once go through the caps.
    const t = target();
    const u = await makeUser(t);
    const codes = [0, 3, 0, 1, 0, 7, 0, 0, 2, 0, 0, 5];
    const ids = await Promise.all(codes.map((code) => startJob(t, u, ['sh', '-c', `exit ${code}`])));
    const ended = await waitAllEnded(t, u, ids);
    const seen = ids.map((id) => {
      const s = ended.get(id)?.status as { stage: string; message?: string | null };
      return { stage: s.stage, message: s.stage === 'ERROR' ? s.message : null };
    });
    expect(seen).toEqual(
      codes.map((code) =>
        code === 0
          ? { stage: 'COMPLETED', message: null }
          : { stage: 'ERROR', message: expect.stringContaining(String(code)) },
      ),
    );
  });
}
