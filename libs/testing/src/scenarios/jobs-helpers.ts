import { execFileSync } from 'node:child_process';
import { getJob } from '@huggingface/hub';

export interface JobTarget {
  baseUrl: string;
  adminToken: string;
}

/** Polls a job until its stage is one of `stages` (or fails after `ms`). */
export async function waitForStage(
  t: JobTarget,
  token: string,
  namespace: string,
  jobId: string,
  stages: string[],
  ms = 20_000,
): Promise<Awaited<ReturnType<typeof getJob>>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const job = await getJob({ namespace, jobId, accessToken: token, hubUrl: t.baseUrl });
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
