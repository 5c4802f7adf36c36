import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { isBlockedAddress } from '@hub/config';
import { hostname } from 'node:os';
import { type ImageReference, parseImageReference } from '@hub/jobs-contract';

/**
 * Where an image may be pulled from (decision 0623). The engine pulls from the host's network,
 * outside the jobs network and its firewall, and over plain HTTP for loopback and private
 * registries: a registry host that is loopback, private, link-local, unspecified or multicast
 * (as a literal or as what its name resolves to), or one of the hub's own names, is refused
 * unless HUB_JOBS_ALLOWED_REGISTRIES lists it. A name without a registry (`alpine:3`,
 * `team/app:1`) is always allowed: the engine runs its local copy, else pulls from Docker Hub
 * (Podman: its configured search registries).
 */
const NOTHING_ALLOWED = new BlockList();

/**
 * True for an address no registry may have unless allowed: the webhooks' SSRF ranges (loopback,
 * private, link-local, CGNAT, multicast, IPv6 transition addresses to those), from @hub/config.
 */
export function isInternalAddress(address: string): boolean {
  return isBlockedAddress(address, NOTHING_ALLOWED);
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
