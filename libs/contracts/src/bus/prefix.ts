/**
 * Every subject, queue group and stream name carries this prefix, read once from
 * HUB_BUS_PREFIX. Several hubs, or several test runs, can then share one NATS server without
 * answering each other's requests (toolchain trap 6). This is the one place contracts read the
 * environment: the constants below are computed at import time.
 */
const raw = (typeof process !== 'undefined' && process.env['HUB_BUS_PREFIX']) || '';

export const BUS_PREFIX = raw;

/** `name` under another prefix than this process's (the NATS permissions generator, decision 0013). */
export function subjectIn(prefix: string, name: string): string {
  return prefix ? `${prefix}.${name}` : name;
}

export function streamNameIn(prefix: string, name: string): string {
  return prefix ? `${prefix.toUpperCase().replace(/-/g, '_')}_${name}` : name;
}

export function subject(name: string): string {
  return subjectIn(raw, name);
}

/** Stream and durable consumer names allow no dots. */
export function streamName(name: string): string {
  return streamNameIn(raw, name);
}

/** A subject or stream name of this process without its prefix: what the descriptors declared. */
export function unprefixedSubject(s: string): string {
  return raw && s.startsWith(`${raw}.`) ? s.slice(raw.length + 1) : s;
}

export function unprefixedStream(s: string): string {
  return s.slice(streamName('').length);
}

export function queueGroup(service: string): string {
  return raw ? `${raw}-${service}` : service;
}
