import { JOB_HARDWARE, type JobHardwareView } from '@hub/jobs-contract';

/** `GET /api/jobs/hardware`: the flavor table in the public clients' shape (price per minute). */
export function hardwareViews(): JobHardwareView[] {
  return JOB_HARDWARE.map((h) => {
    const perMinuteMicro = Math.round((h.usdPerHour / 60) * 1_000_000);
    return {
      name: h.name,
      prettyName: h.prettyName,
      cpu: `${h.vcpu} vCPU`,
      ram: `${h.ramGb} GB`,
      ephemeralStorage: `${h.diskGb} GB`,
      accelerator: h.gpu
        ? {
            type: h.gpu.type,
            model: h.gpu.model,
            quantity: String(h.gpu.count),
            vram: `${h.gpu.vramGb} GB`,
            manufacturer: h.gpu.manufacturer,
          }
        : null,
      unitCostMicroUSD: perMinuteMicro,
      unitCostUSD: perMinuteMicro / 1_000_000,
      unitLabel: 'minute',
    };
  });
}
