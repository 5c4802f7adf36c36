import { type getJob, runJob } from '@huggingface/hub';
import { makeUser } from '../hub-factory';
import { TEST_JOB_IMAGE } from '../job-engine';
import { type JobTarget, waitAllEnded } from './jobs-helpers';

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
    const ended = await waitAllEnded(t, u, ids);
    const seen = ids.map((id) => {
      const j = ended.get(id) as Job;
      return { stage: j.status.stage, ran: typeof j.startedAt === 'string' };
    });
    expect(seen).toEqual(ids.map(() => ({ stage: 'COMPLETED', ran: true })));
  });
}
