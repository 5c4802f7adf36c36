import { subject } from './prefix';

/** A payload's class-validator class: what a receiver validates against. */
export type PayloadClass<T> = new () => T;

/**
 * One RPC, declared once with both of its types: `rpc.call(CredentialsRpc.VerifyToken, data, ctx)`
 * infers the request and the reply, and `@RpcHandler(CredentialsRpc.VerifyToken)` checks the
 * handler's signature against the same two types.
 */
export interface RpcDescriptor<Req, Res> {
  readonly subject: string;
  readonly request: PayloadClass<Req>;
  /** Type-only: the reply's type. Never set at run time. */
  readonly response?: Res;
}

export function rpc<Req, Res>(name: string, request: PayloadClass<Req>): RpcDescriptor<Req, Res> {
  return { subject: subject(name), request };
}

/** One event subject with its payload class. */
export interface EventDescriptor<P> {
  readonly subject: string;
  readonly payload: PayloadClass<P>;
}

/**
 * Every event and family declared with `event()` / `eventFamily()`, by its subject without the
 * bus prefix: the AsyncAPI document is generated from this list, so a new descriptor is in it
 * without anyone listing it again (decision 0700).
 */
export interface DeclaredEvent {
  /** `hub.credentials.token.revoked`, or a family's prefix (`hub.audit`). */
  readonly name: string;
  readonly family: boolean;
  readonly payload: PayloadClass<unknown>;
}

const declared: DeclaredEvent[] = [];

function declare(entry: DeclaredEvent): void {
  if (!declared.some((d) => d.name === entry.name && d.family === entry.family && d.payload === entry.payload))
    declared.push(entry);
}

export function declaredEvents(): readonly DeclaredEvent[] {
  return declared;
}

export function event<P>(name: string, payload: PayloadClass<P>): EventDescriptor<P> {
  declare({ name, family: false, payload: payload as PayloadClass<unknown> });
  return { subject: subject(name), payload };
}

/**
 * Subjects that share one payload class under a prefix, e.g. `hub.audit.<type>`: `of(type)` is
 * one subject to publish on, `pattern` (`hub.audit.>`) what a consumer subscribes to.
 */
export interface EventFamily<P> {
  readonly pattern: string;
  readonly payload: PayloadClass<P>;
  of(suffix: string): EventDescriptor<P>;
}

export function eventFamily<P>(prefix: string, payload: PayloadClass<P>): EventFamily<P> {
  declare({ name: prefix, family: true, payload: payload as PayloadClass<unknown> });
  return {
    pattern: subject(`${prefix}.>`),
    payload,
    of: (suffix) => ({ subject: subject(`${prefix}.${suffix}`), payload }),
  };
}

/** What a consumer can subscribe to: one subject or a family. */
export type EventSource<P> = EventDescriptor<P> | EventFamily<P>;

export function subjectFilter(source: EventSource<unknown>): string {
  return 'pattern' in source ? source.pattern : source.subject;
}

/**
 * A reply in two parts: `head` crosses the bus as JSON, `tail` after it as it is, rather than
 * escaped into a JSON string and parsed back (a large text already serialized, such as a page of
 * the audit export: escaping and parsing it were most of the gateway's and the service's CPU,
 * decision 0410). The caller gets the tail as bytes over NATS and as text in-process; both can be
 * written to a response as they are.
 */
export class TailedReply<Head> {
  constructor(
    readonly head: Head,
    readonly tail: string | Uint8Array,
  ) {}
}
