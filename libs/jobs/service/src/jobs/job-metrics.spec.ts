import { completeSample } from './job-metrics';

describe('completeSample', () => {
  const now = new Date('2026-01-01T00:00:00Z');

  it('answers zeros with the flavor as totals when nothing was measured (never a 0 total)', () => {
    expect(completeSample(null, 'cpu-upgrade', now)).toEqual({
      cpu_usage_pct: 0,
      cpu_millicores: 8000,
      memory_used_bytes: 0,
      memory_total_bytes: 32 * 1024 ** 3,
      rx_bps: 0,
      tx_bps: 0,
      gpus: [],
      timestamp: now.toISOString(),
    });
  });

  it('completes a sample stored before the public fields existed, and keeps a full one as it is', () => {
    const old = { cpu_usage_pct: 12.5, memory_used_bytes: 1000, timestamp: '2025-12-31T00:00:00.000Z' };
    expect(completeSample(old, 'cpu-basic', now)).toMatchObject({
      ...old,
      cpu_millicores: 2000,
      memory_total_bytes: 16 * 1024 ** 3,
      rx_bps: 0,
      tx_bps: 0,
      gpus: [],
    });
    const full = { ...old, cpu_millicores: 2000, memory_total_bytes: 5000, rx_bps: 3, tx_bps: 4, gpus: [] };
    expect(completeSample(full, 'cpu-basic', now)).toEqual(full);
  });
});
