/**
 * Every subject, queue group and stream name carries this prefix, read once from
 * HUB_BUS_PREFIX. Several hubs, or several test runs, can then share one NATS server without
 * answering each other's requests (toolchain trap 6). This is the one place contracts read the
 * environment: the constants below are computed at import time.
 */
const raw = (typeof process !== 'undefined' && process.env['HUB_BUS_PREFIX']) || '';

export const BUS_PREFIX = raw;

export function subject(name: string): string {
  return raw ? `${raw}.${name}` : name;
}

/** Stream and durable consumer names allow no dots. */
export function streamName(name: string): string {
  return raw ? `${raw.toUpperCase().replace(/-/g, '_')}_${name}` : name;
}

export function queueGroup(service: string): string {
  return raw ? `${raw}-${service}` : service;
}
