import { fromEngineStats } from './engine-stats';

describe('fromEngineStats', () => {
  it('reads CPU time, memory without inactive page cache, the limit and the traffic of every interface', () => {
    const s = fromEngineStats(
      {
        cpu_stats: { cpu_usage: { total_usage: 2_500_000_000 } },
        memory_stats: { usage: 50_000_000, limit: 2_147_483_648, stats: { total_inactive_file: 10_000_000 } },
        networks: { eth0: { rx_bytes: 1200, tx_bytes: 300 }, eth1: { rx_bytes: 800, tx_bytes: 700 } },
      },
      42,
    );
    expect(s).toEqual({
      cpuTicks: 250,
      rssBytes: 40_000_000,
      at: 42,
      net: { rx: 2000, tx: 1000 },
      memoryLimitBytes: 2_147_483_648,
    });
  });

  it('takes cgroup v2 inactive_file, ignores a limit that means none, and has no sample without CPU figures', () => {
    const s = fromEngineStats(
      {
        cpu_stats: { cpu_usage: { total_usage: 0 } },
        memory_stats: { usage: 3000, limit: 9223372036854771712, stats: { inactive_file: 1000 } },
      },
      1,
    );
    expect(s).toEqual({ cpuTicks: 0, rssBytes: 2000, at: 1, net: { rx: 0, tx: 0 } });
    expect(fromEngineStats({ memory_stats: {} }, 1)).toBeNull();
  });
});
