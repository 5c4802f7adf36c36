import { type JobFlavor } from './jobs.enums';

/** One flavor of spec 2.3: what the runners size a job by and what `GET /api/jobs/hardware` lists. */
export interface JobHardware {
  name: JobFlavor;
  prettyName: string;
  vcpu: number;
  ramGb: number;
  /** Scratch disk of a run, GB (`ephemeralStorage` of `GET /api/jobs/hardware`). */
  diskGb: number;
  gpu?: { model: string; count: number; vramGb: number; manufacturer: 'Nvidia' | 'AWS'; type: 'gpu' | 'neuron' };
  /** Price in USD per hour (the public hub's list prices, for display). */
  usdPerHour: number;
}

const nv = (model: string, count: number, vramGb: number): JobHardware['gpu'] => ({
  model,
  count,
  vramGb,
  manufacturer: 'Nvidia',
  type: 'gpu',
});
/** Scratch disk by machine size (the public hub publishes no table here, decision 0620): 50 GB at 2 vCPUs, 100 GB up to 8, 500 GB up to 256 GB of RAM, 1000 GB above. */
const diskFor = (vcpu: number, ramGb: number): number => (vcpu <= 2 ? 50 : vcpu <= 8 ? 100 : ramGb <= 256 ? 500 : 1000);
const row = (
  name: JobFlavor,
  prettyName: string,
  vcpu: number,
  ramGb: number,
  usdPerHour: number,
  gpu?: JobHardware['gpu'],
): JobHardware => ({ name, prettyName, vcpu, ramGb, diskGb: diskFor(vcpu, ramGb), usdPerHour, gpu });

export const JOB_HARDWARE: readonly JobHardware[] = [
  row('cpu-basic', 'CPU basic', 2, 16, 0.01),
  row('cpu-upgrade', 'CPU upgrade', 8, 32, 0.03),
  row('cpu-performance', 'CPU performance', 32, 256, 0.5),
  row('cpu-xl', 'CPU XL', 16, 124, 1),
  row('sprx8', 'Sapphire Rapids x8', 32, 256, 0.9),
  row('zero-a10g', 'ZeroGPU', 2, 16, 0, nv('A10G', 1, 24)),
  row('t4-small', 'Nvidia T4 small', 4, 15, 0.4, nv('T4', 1, 16)),
  row('t4-medium', 'Nvidia T4 medium', 8, 30, 0.6, nv('T4', 1, 16)),
  row('l4x1', '1x Nvidia L4', 8, 30, 0.8, nv('L4', 1, 24)),
  row('l4x4', '4x Nvidia L4', 48, 186, 3.8, nv('L4', 4, 96)),
  row('l40sx1', '1x Nvidia L40S', 8, 62, 1.8, nv('L40S', 1, 48)),
  row('l40sx4', '4x Nvidia L40S', 48, 382, 8.3, nv('L40S', 4, 192)),
  row('l40sx8', '8x Nvidia L40S', 192, 1534, 23.5, nv('L40S', 8, 384)),
  row('a10g-small', 'Nvidia A10G small', 4, 15, 1, nv('A10G', 1, 24)),
  row('a10g-large', 'Nvidia A10G large', 12, 46, 1.5, nv('A10G', 1, 24)),
  row('a10g-largex2', '2x Nvidia A10G large', 24, 92, 3, nv('A10G', 2, 48)),
  row('a10g-largex4', '4x Nvidia A10G large', 48, 184, 5, nv('A10G', 4, 96)),
  row('a100-large', 'Nvidia A100 large', 12, 142, 2.5, nv('A100', 1, 80)),
  row('a100x4', '4x Nvidia A100', 48, 568, 10, nv('A100', 4, 320)),
  row('a100x8', '8x Nvidia A100', 96, 1136, 20, nv('A100', 8, 640)),
  row('h200', 'Nvidia H200', 23, 256, 5, nv('H200', 1, 141)),
  row('h200x2', '2x Nvidia H200', 46, 512, 10, nv('H200', 2, 282)),
  row('h200x4', '4x Nvidia H200', 92, 1024, 20, nv('H200', 4, 564)),
  row('h200x8', '8x Nvidia H200', 184, 2048, 40, nv('H200', 8, 1128)),
  row('rtx-pro-6000', 'Nvidia RTX PRO 6000', 23, 256, 2.7, nv('RTX PRO 6000', 1, 96)),
  row('rtx-pro-6000x2', '2x Nvidia RTX PRO 6000', 46, 512, 5.4, nv('RTX PRO 6000', 2, 192)),
  row('rtx-pro-6000x4', '4x Nvidia RTX PRO 6000', 92, 1024, 10.8, nv('RTX PRO 6000', 4, 384)),
  row('rtx-pro-6000x8', '8x Nvidia RTX PRO 6000', 184, 2048, 21.6, nv('RTX PRO 6000', 8, 768)),
  row('inf2x6', 'AWS Inferentia2 x6', 24, 384, 4.5, {
    model: 'Inferentia2',
    count: 6,
    vramGb: 192,
    manufacturer: 'AWS',
    type: 'neuron',
  }),
];

export function hardwareOf(flavor: JobFlavor): JobHardware {
  const hw = JOB_HARDWARE.find((h) => h.name === flavor);
  if (!hw) throw new Error(`no hardware row for flavor ${flavor}`);
  return hw;
}
