import { type Context, context, ROOT_CONTEXT, type Span, trace, type Tracer, TraceFlags } from '@opentelemetry/api';

/**
 * W3C trace context across the bus (decision 0504), with the public OpenTelemetry API only. With
 * no tracer provider registered (tracing off, the default) there is no active span: the
 * traceparent is undefined, nothing is added to a message or a row, and spans are the API's no-op
 * ones, so the cost is a lookup per message.
 */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

let tracing = false;

/** Set once a tracer provider is registered (startTracing, or a test's): hot paths skip spans until then. */
export function markTracingOn(on = true): void {
  tracing = on;
}

export function isTracingOn(): boolean {
  return tracing;
}

export function hubTracer(): Tracer {
  return trace.getTracer('hub');
}

/** The active span as a `traceparent` value, or undefined when there is none (tracing off). */
export function currentTraceparent(ctx: Context = context.active()): string | undefined {
  const sc = trace.getSpanContext(ctx);
  if (!sc || !trace.isSpanContextValid(sc)) return undefined;
  return `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/** A span's own traceparent (what a receiver sees as the parent of its work). */
export function traceparentOf(span: Span): string | undefined {
  return currentTraceparent(trace.setSpan(ROOT_CONTEXT, span));
}

/** The remote parent a `traceparent` names, as a context; the root context for none or a malformed one. */
export function contextFromTraceparent(traceparent: string | null | undefined): Context {
  const m = traceparent ? TRACEPARENT.exec(traceparent) : null;
  if (!m || /^0+$/.test(m[1]) || /^0+$/.test(m[2])) return ROOT_CONTEXT;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: m[1],
    spanId: m[2],
    traceFlags: parseInt(m[3], 16) & TraceFlags.SAMPLED,
    isRemote: true,
  });
}

export function isTraceparent(value: unknown): value is string {
  return typeof value === 'string' && TRACEPARENT.test(value);
}
