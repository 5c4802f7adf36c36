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

export function event<P>(name: string, payload: PayloadClass<P>): EventDescriptor<P> {
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
