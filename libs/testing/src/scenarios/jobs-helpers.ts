import { execFileSync } from 'node:child_process';
import { getJob, runJob } from '@huggingface/hub';
import { type HubProcess } from '../distributed-hub';
import { makeUser } from '../hub-factory';

export interface JobTarget {
  baseUrl: string;
  adminToken: string;
}

/**
 * Polls a job until its stage is one of `stages` (or fails after `ms`). A poll that fails is
 * polled again when `retry(error, startedAt)` says so (startedAt: when that poll was sent).
 */
export async function waitForStage(
  t: JobTarget,
  token: string,
  namespace: string,
  jobId: string,
  stages: string[],
  ms = 20_000,
  retry: (error: unknown, startedAt: number) => boolean = () => false,
): Promise<Awaited<ReturnType<typeof getJob>>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const startedAt = Date.now();
    let job: Awaited<ReturnType<typeof getJob>>;
    try {
      job = await getJob({ namespace, jobId, accessToken: token, hubUrl: t.baseUrl });
    } catch (error) {
      if (!retry(error, startedAt) || Date.now() > deadline) throw error;
      continue;
    }
    if (stages.includes(job.status.stage)) return job;
    if (Date.now() > deadline)
      throw new Error(`job ${jobId} still ${job.status.stage} (${job.status.message ?? ''}) after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Processes on this machine whose command line starts with `marker`. */
export function processesWith(marker: string): string[] {
  const out = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith(marker));
}

/** Reads a server-sent-events answer to its end; returns the data lines' payloads. */
export async function readSse(
  url: string,
  token: string,
  limitMs = 20_000,
): Promise<{ status: number; contentType: string | null; data: string[]; comments: string[] }> {
  const res = await fetch(url, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: AbortSignal.timeout(limitMs),
  });
  const text = await res.text();
  const lines = text.split('\n');
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    data: lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)),
    comments: lines.filter((l) => l.startsWith(':')),
  };
}

/**
 * Runs a job with two background sleeps on a distributed hub, stops its jobs service mid-run with
 * `kill` (given the `sleep <marker>` command line to look for), restarts it, and checks that the
 * job is settled as stopped and its processes are gone. Returns the settled job.
 */
export async function killJobsServiceMidRun(
  t: JobTarget,
  jobs: HubProcess,
  o: { image: string; kill: (jobs: HubProcess, marker: string) => Promise<void> },
): Promise<Awaited<ReturnType<typeof getJob>>> {
  const user = await makeUser(t);
  const marker = `sleep ${700_000 + Math.floor(Math.random() * 199_999)}`;
  const job = await runJob({
    namespace: user.name,
    accessToken: user.token,
    hubUrl: t.baseUrl,
    dockerImage: o.image,
    flavor: 'cpu-basic',
    command: ['sh', '-c', `${marker} & ${marker}; wait`],
  });
  // RUNNING is stored with the run handle (process group, start time, boot id), after the spawn.
  await waitForStage(t, user.token, user.name, job.id, ['RUNNING']);
  const seen = Date.now() + 5000;
  while (processesWith(marker).length < 2 && Date.now() < seen) await new Promise((r) => setTimeout(r, 50));
  await o.kill(jobs, marker);
  await jobs.restart();
  const settled = await waitForStage(t, user.token, user.name, job.id, ['ERROR', 'COMPLETED', 'CANCELED'], 15_000);
  expect(settled.status.message).toMatch(/jobs service stopped while this job ran; its processes were killed/);
  const gone = Date.now() + 10_000;
  while (processesWith(marker).length > 0 && Date.now() < gone) await new Promise((r) => setTimeout(r, 50));
  expect(processesWith(marker)).toEqual([]);
  return settled;
}

/**
 * Polls every job until each has ended (COMPLETED, ERROR, CANCELED or DELETED); waits on progress:
 * fails only when no job has ended for a whole minute. The jobs as they ended, by id.
 */
export async function waitAllEnded(
  t: JobTarget,
  u: { name: string; token: string },
  ids: string[],
): Promise<Map<string, Awaited<ReturnType<typeof getJob>>>> {
  const ended = new Map<string, Awaited<ReturnType<typeof getJob>>>();
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
  return ended;
}
