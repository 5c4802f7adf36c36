import { http } from '../http-client';
import { makeUser } from '../hub-factory';
import { openApiValidatorFor } from '../openapi';
import { type JobTarget, waitForStage } from './jobs-helpers';

type Sample = Record<string, unknown> & {
  cpu_usage_pct: number;
  cpu_millicores: number;
  memory_used_bytes: number;
  memory_total_bytes: number;
  rx_bps: number;
  tx_bps: number;
  gpus: unknown[];
};

/**
 * `hf jobs stats` as huggingface_hub reads the metrics stream: each `data: {` line is a JSON
 * sample, and the CLI computes `cpu_millicores / 1000`, `memory_used_bytes / memory_total_bytes`
 * and reads `rx_bps`, `tx_bps` and `gpus` (issue 37 item 2). Runs where the engine gives real
 * figures: a job that burns CPU and holds memory shows them.
 */
export function jobsMetricsScenarios(target: () => JobTarget): void {
  it('hf jobs stats: every sample has the public fields; a busy job shows CPU and memory in use, network fields present', async () => {
    const t = target();
    const user = await makeUser(t);
    // `yes` keeps a CPU busy; 24 MB in the container's tmpfs /tmp count as its memory (under the
    // 64 MiB some suites give a container).
    const created = await http<{ id: string }>(t.baseUrl, 'POST', `/api/jobs/${user.name}`, {
      token: user.token,
      body: {
        dockerImage: 'alpine:3',
        flavor: 'cpu-basic',
        command: ['sh', '-c', 'yes >/dev/null & head -c 24000000 /dev/zero >/tmp/fill; sleep 8; kill $!'],
      },
    });
    expect(created.status).toBe(200);
    await waitForStage(t, user.token, user.name, created.body.id, ['RUNNING']);
    const res = await fetch(`${t.baseUrl}/api/jobs/${user.name}/${created.body.id}/metrics`, {
      headers: { authorization: `Bearer ${user.token}` },
      signal: AbortSignal.timeout(60_000),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    // As fetch_job_metrics: lines starting with `data: {`, JSON after `data: `.
    const samples = (await res.text())
      .split('\n')
      .filter((l) => l.startsWith('data: {'))
      .map((l) => JSON.parse(l.slice(6)) as Sample);
    expect(samples.length).toBeGreaterThan(2);
    const doc = await openApiValidatorFor(t.baseUrl);
    for (const m of samples) {
      doc.assertComponent('JobMetricsSample', m);
      // The CLI's row: none of these may throw or divide by zero.
      expect(Number.isFinite(m.cpu_millicores / 1000)).toBe(true);
      expect(m.memory_total_bytes).toBeGreaterThan(0);
      expect(Number.isFinite((100 * m.memory_used_bytes) / m.memory_total_bytes)).toBe(true);
      expect([typeof m.rx_bps, typeof m.tx_bps]).toEqual(['number', 'number']);
      expect(m.gpus).toEqual([]);
      expect(m.cpu_millicores).toBe(2000);
    }
    expect(Math.max(...samples.map((m) => m.cpu_usage_pct))).toBeGreaterThan(10);
    expect(Math.max(...samples.map((m) => m.memory_used_bytes))).toBeGreaterThan(20_000_000);
    expect((await waitForStage(t, user.token, user.name, created.body.id, ['COMPLETED', 'ERROR'])).status.stage).toBe(
      'COMPLETED',
    );
  });
}
