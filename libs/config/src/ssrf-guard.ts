import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Architecture section 7: no delivery reaches loopback, private, link-local (metadata), CGNAT or
 * ULA addresses unless the operator's allowed networks (HUB_WEBHOOK_ALLOWED_NETWORKS for webhooks,
 * HUB_AUDIT_STREAM_ALLOWED_NETWORKS for audit streams) list them. Decided on the resolved address,
 * at connect time, so a name that resolves to 127.0.0.1 is refused like the literal.
 */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv4');
// IPv4-mapped IPv6 (::ffff:a.b.c.d) is unwrapped and judged as IPv4 below: a /96 rule here would
// also catch every IPv4 address, because BlockList checks IPv4 against mapped IPv6 rules.
// fec0::/10 is the deprecated site-local range; 64:ff9b:1::/48 is the local-use NAT64 prefix
// (RFC 8215), whose translator may map it onto anything of the operator's: both refused outright.
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['64:ff9b:1::', 48],
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv6');
}

/** The allowed networks of a comma-separated CIDR list; `setting` names the variable in errors. */
export function parseNetworks(list: string | undefined, setting = 'HUB_WEBHOOK_ALLOWED_NETWORKS'): BlockList {
  const allowed = new BlockList();
  for (const item of (list ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [addr, bits] = item.split('/');
    const family = isIP(addr);
    if (family === 0) throw new Error(`${setting}: ${item} is not an address or CIDR`);
    allowed.addSubnet(
      addr,
      bits === undefined ? (family === 4 ? 32 : 128) : Number(bits),
      family === 4 ? 'ipv4' : 'ipv6',
    );
  }
  return allowed;
}

/** The eight 16-bit groups of a valid IPv6 literal (a dotted IPv4 tail and a zone id allowed). */
export function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0].toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined): number[] => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const ipv4 = (hi: number, lo: number): string => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * The IPv4 addresses an IPv6 transition address leads to, or null for an ordinary IPv6 address:
 * IPv4-compatible `::a.b.c.d`, SIIT `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`, 6to4
 * `2002:AABB:CCDD::/48`, and Teredo `2001:0:SSSS:SSSS:…:~CCCC:~CCCC` (its server and its client,
 * whose address is stored inverted).
 */
export function embeddedIpv4(address: string): string[] | null {
  const g = ipv6Groups(address);
  const zero = (from: number, to: number): boolean => g.slice(from, to).every((x) => x === 0);
  if (zero(0, 6)) return [ipv4(g[6], g[7])];
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return [ipv4(g[6], g[7])];
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return [ipv4(g[6], g[7])];
  if (g[0] === 0x2002) return [ipv4(g[1], g[2])];
  if (g[0] === 0x2001 && g[1] === 0) return [ipv4(g[2], g[3]), ipv4(g[6] ^ 0xffff, g[7] ^ 0xffff)];
  return null;
}

/** True when a delivery must not connect to `address` (an IP literal). */
export function isBlockedAddress(address: string, allowed: BlockList): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 4) return !allowed.check(address, 'ipv4') && BLOCKED.check(address, 'ipv4');
  const g = ipv6Groups(address);
  // An IPv4-mapped address (::ffff:a.b.c.d) is the IPv4 socket itself: judged as that address,
  // the allowed networks included.
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return isBlockedAddress(ipv4(g[6], g[7]), allowed);
  if (allowed.check(address, 'ipv6')) return false;
  if (BLOCKED.check(address, 'ipv6')) return true;
  // A transition address reaches its IPv4 through a translator or relay, not over the route the
  // operator allowed for the plain address: it is refused when that IPv4 is in a blocked range,
  // whatever IPv4 networks are allowed (an IPv6 entry covering it allows it, above). Decision 0015.
  return (embeddedIpv4(address) ?? []).some((v4) => BLOCKED.check(v4, 'ipv4'));
}

export class BlockedAddressError extends Error {}

/**
 * A `lookup` for sockets (http.request, an Agent): resolves like Node does, then refuses blocked
 * addresses before any connection is made, so a name resolving to 127.0.0.1 is refused like the literal.
 */
export function guardedLookup(allowed: BlockList): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as unknown as { address: string; family: number }[];
      const bad = list.find((a) => isBlockedAddress(a.address, allowed));
      if (bad)
        return callback(new BlockedAddressError(`${hostname} resolves to ${bad.address}, a blocked address`), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
      return callback(null, list[0].address, list[0].family);
    });
  };
}
