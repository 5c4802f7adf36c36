import { getJob, runJob } from '@huggingface/hub';
import { makeUser } from '../hub-factory';
import { TEST_JOB_IMAGE } from '../job-engine';
import { type JobTarget } from './jobs-helpers';

type Job = Awaited<ReturnType<typeof getJob>>;

/**
 * A burst of launches (issue 41): jobs posted all at once in one namespace each reach RUNNING
 * (a start time) and COMPLETED, none refused, lost or left behind. Its runner's caps must let
 * `count` jobs be active in one namespace (HUB_JOBS_MAX_ACTIVE_PER_NAMESPACE, default 100).
 */
export function jobsBurstScenarios(target: () => JobTarget, count = 50): void {
  it(`runs ${count} jobs posted at once in one namespace: every one reaches RUNNING and COMPLETED`, async () => {
    const t = target();
    const u = await makeUser(t);
    const ids = await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const job = await runJob({
          namespace: u.name,
          accessToken: u.token,
          hubUrl: t.baseUrl,
          dockerImage: TEST_JOB_IMAGE,
          flavor: 'cpu-basic',
          command: ['sh', '-c', `echo burst-${i}`],
        });
        return job.id;
      }),
    );
    expect(new Set(ids).size).toBe(count);
    // Waits on progress: fails only when no job has ended for a whole minute.
    const ended = new Map<string, Job>();
    let lastProgress = Date.now();
    while (ended.size < ids.length) {
      for (const id of ids.filter((i) => !ended.has(i))) {
        const job = await getJob({ namespace: u.name, jobId: id, accessToken: u.token, hubUrl: t.baseUrl });
        if (['COMPLETED', 'ERROR', 'CANCELED', 'DELETED'].includes(job.status.stage)) {
          ended.set(id, job);
          lastProgress = Date.now();
        }
      }
      if (Date.now() - lastProgress > 60_000) {
        const left = ids.filter((i) => !ended.has(i));
        throw new Error(`${left.length} of ${ids.length} jobs did not end: ${left.join(', ')}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const seen = ids.map((id) => {
      const j = ended.get(id) as Job;
      return { stage: j.status.stage, ran: typeof j.startedAt === 'string' };
    });
    expect(seen).toEqual(ids.map(() => ({ stage: 'COMPLETED', ran: true })));
  });
}
