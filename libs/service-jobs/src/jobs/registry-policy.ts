import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { hostname } from 'node:os';
import { type ImageReference, parseImageReference } from '@hub/contracts';

/**
 * Where an image may be pulled from (decision 0623). The engine pulls from the host's network,
 * outside the jobs network and its firewall, and over plain HTTP for loopback and private
 * registries: a registry host that is loopback, private, link-local, unspecified or multicast
 * (as a literal or as what its name resolves to), or one of the hub's own names, is refused
 * unless HUB_JOBS_ALLOWED_REGISTRIES lists it. A name without a registry (`alpine:3`,
 * `team/app:1`) is always allowed: the engine runs its local copy, else pulls from Docker Hub
 * (Podman: its configured search registries).
 */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 3],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv6');

/** True for an address no registry may have unless allowed (IPv4-mapped IPv6 judged as its IPv4). */
export function isInternalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isInternalAddress(mapped[1]);
  const family = isIP(address);
  return family === 0 || BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export interface RegistryPolicyOptions {
  /** HUB_JOBS_ALLOWED_REGISTRIES, split: `host` (any port) or `host:port`, lowercase. */
  allowed: string[];
  /** Names of this hub: its public URL's host, HUB_JOBS_DOMAIN (and its subdomains), the SSH host. */
  ownNames: string[];
  /** How a host name is resolved (tests replace it); a failed lookup is not a refusal (the pull fails on its own). */
  resolve?: (host: string) => Promise<string[]>;
}

const defaultResolve = async (host: string): Promise<string[]> =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

export class RegistryPolicy {
  private readonly allowed: Set<string>;
  private readonly ownNames: string[];
  private readonly resolve: (host: string) => Promise<string[]>;

  constructor(options: RegistryPolicyOptions) {
    this.allowed = new Set(options.allowed.map((a) => a.toLowerCase()));
    this.ownNames = ['localhost', hostname().toLowerCase(), ...options.ownNames.map((n) => n.toLowerCase())];
    this.resolve = options.resolve ?? defaultResolve;
  }

  /** Why `dockerImage`'s registry is refused (a phrase after "registry <host> "), or null. */
  async refusal(dockerImage: string): Promise<string | null> {
    const ref = parseImageReference(dockerImage);
    if ('error' in ref) return ref.error;
    return this.registryRefusal(ref);
  }

  private async registryRefusal(ref: ImageReference): Promise<string | null> {
    if (!ref.registry || !ref.host) return null;
    if (this.allowed.has(ref.registry) || this.allowed.has(ref.host)) return null;
    const host = ref.host.replace(/\.$/, '');
    const own = this.ownNames.some((n) => host === n || host.endsWith(`.${n}`));
    if (own) return `registry ${ref.registry} is one of this hub's own names`;
    if (isIP(host)) return isInternalAddress(host) ? `registry ${ref.registry} is an internal address` : null;
    const addresses = await this.resolve(host).catch(() => []);
    const internal = addresses.find(isInternalAddress);
    return internal ? `registry ${ref.registry} resolves to an internal address` : null;
  }
}
