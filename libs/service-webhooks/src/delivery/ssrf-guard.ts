import { BlockList, isIP } from 'node:net';

/**
 * Architecture section 7: no delivery reaches loopback, private, link-local (metadata), CGNAT or
 * ULA addresses unless HUB_WEBHOOK_ALLOWED_NETWORKS lists them. Decided on the resolved address,
 * at connect time, so a name that resolves to 127.0.0.1 is refused like the literal.
 */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED.addSubnet(net, prefix, 'ipv4');
// IPv4-mapped IPv6 (::ffff:a.b.c.d) is unwrapped and judged as IPv4 below: a /96 rule here would
// also catch every IPv4 address, because BlockList checks IPv4 against mapped IPv6 rules.
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv6');
}

export function parseNetworks(list: string | undefined): BlockList {
  const allowed = new BlockList();
  for (const item of (list ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const [addr, bits] = item.split('/');
    const family = isIP(addr);
    if (family === 0) throw new Error(`HUB_WEBHOOK_ALLOWED_NETWORKS: ${item} is not an address or CIDR`);
    allowed.addSubnet(addr, bits === undefined ? (family === 4 ? 32 : 128) : Number(bits), family === 4 ? 'ipv4' : 'ipv6');
  }
  return allowed;
}

/** True when a delivery must not connect to `address` (an IP literal). */
export function isBlockedAddress(address: string, allowed: BlockList): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  // An IPv4-mapped IPv6 address is judged as the IPv4 address it is.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isBlockedAddress(mapped[1], allowed);
  if (allowed.check(address, type)) return false;
  return BLOCKED.check(address, type);
}
