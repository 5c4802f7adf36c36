import { type JobFlavor } from '@hub/contracts';
import { hardwareOf, type JobMetricsSample } from '@hub/jobs-contract';

/** What a job may use: its flavor's CPUs (millicores) and memory; the runners size it by these. */
export function allowanceOf(flavor: JobFlavor): { cpuMillicores: number; memoryBytes: number } {
  const hw = hardwareOf(flavor);
  return { cpuMillicores: Math.round(hw.vcpu * 1000), memoryBytes: hw.ramGb * 1024 ** 3 };
}

/**
 * The public hub's sample from what is stored (older rows kept only CPU and memory in use), or
 * zeros for a running job with no sample: one just started, or a runner with no source of
 * figures (Kubernetes, decision 0630). Every field is there; what nobody measured is 0, and the
 * totals fall back on the flavor so `hf jobs stats` never divides by 0.
 */
export function completeSample(
  stored: Partial<JobMetricsSample> | null,
  flavor: JobFlavor,
  now: Date,
): JobMetricsSample {
  const allowance = allowanceOf(flavor);
  return {
    cpu_usage_pct: stored?.cpu_usage_pct ?? 0,
    cpu_millicores: stored?.cpu_millicores || allowance.cpuMillicores,
    memory_used_bytes: stored?.memory_used_bytes ?? 0,
    memory_total_bytes: stored?.memory_total_bytes || allowance.memoryBytes,
    rx_bps: stored?.rx_bps ?? 0,
    tx_bps: stored?.tx_bps ?? 0,
    gpus: stored?.gpus ?? [],
    timestamp: stored?.timestamp ?? now.toISOString(),
  };
}
