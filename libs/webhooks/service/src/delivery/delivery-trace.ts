import { type Context, context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { contextFromTraceparent, hubTracer, isTracingOn, traceparentOf } from '@hub/messaging';
import { type ClaimedDelivery } from './delivery-queue.store';
import { type SendResult } from './http-sender';

/**
 * The spans of one attempt (decision 0504), children of the intake span whose context the
 * delivery row keeps: `webhooks.queue` (due → claimed), `webhooks.attempt` (the request; its
 * context goes to the receiver as `traceparent`) and `webhooks.outcome` (the outcome written,
 * the retry scheduled), a child of the attempt. None when tracing is off or the row has no context.
 */
export class DeliveryTrace {
  private outcomeSpan?: Span;

  private constructor(
    private readonly attempt: Span,
    private readonly attemptContext: Context,
    readonly traceparent: string | undefined,
  ) {}

  static start(d: ClaimedDelivery, url: string | null): DeliveryTrace | undefined {
    if (!isTracingOn() || !d.traceparent) return undefined;
    const parent = contextFromTraceparent(d.traceparent);
    const tracer = hubTracer();
    const attributes = {
      'webhooks.delivery_id': d.id,
      'webhooks.webhook_id': d.webhook_id,
      'webhooks.attempt': d.attempts,
    };
    tracer.startSpan('webhooks.queue', { startTime: d.due_ms, attributes }, parent).end();
    const attempt = tracer.startSpan(
      'webhooks.attempt',
      { kind: SpanKind.CLIENT, attributes: url ? { ...attributes, 'url.full': url } : attributes },
      parent,
    );
    return new DeliveryTrace(attempt, trace.setSpan(parent, attempt), traceparentOf(attempt));
  }

  /** Runs the attempt within its span: a job webhook's RPC to the jobs service carries it on. */
  within<T>(fn: () => T): T {
    return context.with(this.attemptContext, fn);
  }

  /** The answer came: the attempt span ends, the outcome span starts. */
  answered(result: SendResult, ok: boolean): void {
    if (result.status !== null) this.attempt.setAttribute('http.response.status_code', result.status);
    if (!ok) this.attempt.setStatus({ code: SpanStatusCode.ERROR, message: result.error ?? `HTTP ${result.status}` });
    this.attempt.end();
    this.outcomeSpan = hubTracer().startSpan('webhooks.outcome', {}, this.attemptContext);
  }

  /** The outcome is written: delivered, retried later (`retryInMs`), or given up. */
  settled(outcome: 'delivered' | 'retry' | 'failed' | 'error', retryInMs?: number | null): void {
    this.outcomeSpan?.setAttribute('webhooks.outcome', outcome);
    if (retryInMs !== undefined && retryInMs !== null)
      this.outcomeSpan?.setAttribute('webhooks.retry_in_ms', retryInMs);
    this.outcomeSpan?.end();
  }
}
