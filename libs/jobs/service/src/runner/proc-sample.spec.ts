import { cpuPercent, netDevTotals, netRates, readProc } from './proc-sample';

const NET_DEV = `Inter-|   Receive                                                |  Transmit
 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
    lo:    9000      10    0    0    0     0          0         0     9000      10    0    0    0     0       0          0
  eth0:    1500       5    0    0    0     0          0         0      700       3    0    0    0     0       0          0
  eth1:     500       1    0    0    0     0          0         0      300       1    0    0    0     0       0          0
`;

describe('proc samples', () => {
  it('adds up the traffic of every interface but loopback', () => {
    expect(netDevTotals(NET_DEV)).toEqual({ rx: 2000, tx: 1000 });
  });

  it('turns two counter readings into bytes per second, 0 without both', () => {
    const prev = { cpuTicks: 0, rssBytes: 0, at: 1000, net: { rx: 1000, tx: 0 } };
    const now = { cpuTicks: 150, rssBytes: 0, at: 3000, net: { rx: 5000, tx: 2000 } };
    expect(netRates(prev, now)).toEqual({ rx: 2000, tx: 1000 });
    expect(netRates(undefined, now)).toEqual({ rx: 0, tx: 0 });
    expect(netRates({ ...prev, net: undefined }, now)).toEqual({ rx: 0, tx: 0 });
    expect(cpuPercent(prev, now)).toBe(75);
  });

  it('reads this process, without traffic: its network is the one it shares with the service', () => {
    const s = readProc(process.pid);
    expect(s).toMatchObject({ cpuTicks: expect.any(Number), rssBytes: expect.any(Number) });
    expect(s?.rssBytes).toBeGreaterThan(0);
    expect(s).not.toHaveProperty('net');
  });
});
