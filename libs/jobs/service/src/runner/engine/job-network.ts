import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { type Engine } from './engine-connect';

const run = promisify(execFile);

/** Destinations no job may reach whatever the network: link-local (the cloud metadata address 169.254.169.254). */
const ALWAYS_BLOCKED = ['169.254.0.0/16'];

export interface JobNetwork {
  name: string;
  /** The bridge interface on this host (firewall rules match it). */
  bridge: string;
  subnet: string;
  /** Whether this runner installed the firewall rules (false: the operator must, README). */
  firewall: boolean;
}

/** The bridge's interface: one per engine (Docker and Podman on one machine must not share it); at most 15 bytes. */
const bridgeOf = (kind: string, name: string): string => `hj${kind[0]}-${name.replace(/[^a-z0-9]/g, '')}`.slice(0, 15);

/**
 * The network job containers join (created once): a bridge with no traffic between its containers
 * (`enable_icc=false`, and a FORWARD rule for engines without it), so a job cannot reach another job. The firewall rules (iptables and ip6tables, when this
 * process may change them) then drop what the bridge sends to this host itself (the hub's
 * services, whatever address they listen on; replies to connections the host opened, such as
 * the gateway's to an exposed port, still pass) and to link-local and `blocked` destinations.
 */
export async function ensureJobNetwork(engine: Engine, name: string, blocked: string[]): Promise<JobNetwork> {
  const bridge = bridgeOf(engine.kind, name);
  const found = (await engine.api.listNetworks({ filters: { name: [name] } })).find((n) => n.Name === name);
  if (!found) {
    await engine.api
      .createNetwork({
        Name: name,
        Driver: 'bridge',
        CheckDuplicate: true,
        Labels: { 'hub.jobs': 'network' },
        Options: {
          'com.docker.network.bridge.enable_icc': 'false',
          'com.docker.network.bridge.name': bridge,
          'com.docker.network.bridge.enable_ip_masquerade': 'true',
        },
      })
      .catch((e: unknown) => {
        // Another replica made it at the same time.
        if (!/already exists|409/.test(String(e))) throw e;
      });
  }
  const info = (await engine.api.getNetwork(name).inspect()) as {
    IPAM?: { Config?: { Subnet?: string }[] };
    Options?: Record<string, string>;
    network_interface?: string;
  };
  const subnet = info.IPAM?.Config?.[0]?.Subnet ?? '';
  const iface = info.Options?.['com.docker.network.bridge.name'] ?? info.network_interface ?? bridge;
  const firewall = await installFirewall(iface, [...ALWAYS_BLOCKED, ...blocked]);
  return { name, bridge: iface, subnet, firewall };
}

/** Adds a rule unless it is there (`-C`), so replicas and restarts do not stack copies. */
async function ensureRule(
  table: string,
  chain: string,
  rule: string[],
  insert: boolean,
  bin: 'iptables' | 'ip6tables' = 'iptables',
): Promise<void> {
  try {
    await run(bin, ['-w', '-t', table, '-C', chain, ...rule]);
  } catch {
    await run(bin, ['-w', '-t', table, insert ? '-I' : '-A', chain, ...(insert ? ['1'] : []), ...rule]);
  }
}

async function chainExists(chain: string): Promise<boolean> {
  return run('iptables', ['-w', '-n', '-L', chain])
    .then(() => true)
    .catch(() => false);
}

/**
 * A chain HUB-JOBS-IN on INPUT for the bridge (established traffic passes, the rest is dropped),
 * drops of the blocked destinations in raw PREROUTING (before any engine's own rules), of
 * traffic between the bridge's containers, and of every IPv6 packet from the bridge. False when
 * iptables is missing or not ours to change (not root): the README says what to add by hand.
 */
async function installFirewall(bridge: string, blocked: string[]): Promise<boolean> {
  if (process.getuid?.() !== 0) return false;
  try {
    // Another replica may make it at the same moment: a failed -N is fine when the chain is there.
    if (!(await chainExists('HUB-JOBS-IN')))
      await run('iptables', ['-w', '-N', 'HUB-JOBS-IN']).catch(async (e: unknown) => {
        if (!(await chainExists('HUB-JOBS-IN'))) throw e;
      });
    await ensureRule(
      'filter',
      'HUB-JOBS-IN',
      ['-m', 'conntrack', '--ctstate', 'ESTABLISHED,RELATED', '-j', 'ACCEPT'],
      false,
    );
    await ensureRule('filter', 'HUB-JOBS-IN', ['-j', 'DROP'], false);
    await ensureRule('filter', 'INPUT', ['-i', bridge, '-j', 'HUB-JOBS-IN'], true);
    // Blocked destinations in raw PREROUTING: before any engine's FORWARD rules, whatever order they were added in.
    for (const cidr of blocked) await ensureRule('raw', 'PREROUTING', ['-i', bridge, '-d', cidr, '-j', 'DROP'], true);
    // Job to job on the bridge (Docker's enable_icc=false does the same; Podman's bridge has no such option).
    // FORWARD: Docker jumps to DOCKER-USER first; without Docker the rule goes first in FORWARD itself.
    const forward = (await chainExists('DOCKER-USER')) ? 'DOCKER-USER' : 'FORWARD';
    await ensureRule('filter', forward, ['-i', bridge, '-o', bridge, '-j', 'DROP'], true);
    // IPv6: the jobs network has no IPv6 subnet, but Podman (and Docker where the kernel lets it)
    // gives each container a link-local address, through which this machine's services on `::`
    // answered (issue 35). No IPv6 from the bridge is needed: all of it is dropped, before routing.
    // A kernel without IPv6 (no /proc/net/if_inet6) has nothing to drop.
    if (existsSync('/proc/net/if_inet6'))
      await ensureRule('raw', 'PREROUTING', ['-i', bridge, '-j', 'DROP'], true, 'ip6tables');
    return true;
  } catch {
    return false;
  }
}
