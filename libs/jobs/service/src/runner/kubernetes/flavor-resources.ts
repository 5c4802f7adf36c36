import { type JobFlavor } from '@hub/contracts';
import { hardwareOf } from '@hub/jobs-contract';

/** A pod's share of the cluster for one flavor: requests = limits (Guaranteed QoS), accelerators, where it may run. */
export interface FlavorResources {
  resources: { requests: Record<string, string>; limits: Record<string, string> };
  nodeSelector?: Record<string, string>;
}

/**
 * Node label each accelerator model is found by: `nvidia.com/gpu.product` as NVIDIA GPU feature
 * discovery sets it; Inferentia by the instance type. Documented in the service README (the
 * operator labels nodes to match, or runs GFD).
 */
export const ACCELERATOR_NODE_LABELS: Record<string, Record<string, string>> = {
  T4: { 'nvidia.com/gpu.product': 'Tesla-T4' },
  A10G: { 'nvidia.com/gpu.product': 'NVIDIA-A10G' },
  L4: { 'nvidia.com/gpu.product': 'NVIDIA-L4' },
  L40S: { 'nvidia.com/gpu.product': 'NVIDIA-L40S' },
  A100: { 'nvidia.com/gpu.product': 'NVIDIA-A100-SXM4-80GB' },
  H200: { 'nvidia.com/gpu.product': 'NVIDIA-H200' },
  'RTX PRO 6000': { 'nvidia.com/gpu.product': 'NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition' },
  Inferentia2: { 'node.kubernetes.io/instance-type': 'inf2.24xlarge' },
};

/** The flavor's vCPUs and RAM (JOB_HARDWARE, spec 2.3) as requests and limits, its GPUs as `nvidia.com/gpu` / `aws.amazon.com/neuron`. */
export function flavorResources(flavor: JobFlavor): FlavorResources {
  const hw = hardwareOf(flavor);
  const base = { cpu: String(hw.vcpu), memory: `${hw.ramGb}Gi` };
  if (!hw.gpu) return { resources: { requests: base, limits: base } };
  const device = hw.gpu.type === 'neuron' ? 'aws.amazon.com/neuron' : 'nvidia.com/gpu';
  const withGpu = { ...base, [device]: String(hw.gpu.count) };
  return { resources: { requests: withGpu, limits: withGpu }, nodeSelector: ACCELERATOR_NODE_LABELS[hw.gpu.model] };
}
