import { randomBytes } from 'node:crypto';
import { http } from '../http-client';
import { makeUser, uniqueName } from '../hub-factory';
import { repoEvent } from './webhooks-helpers';
import { type WebhooksScenarioTarget } from './webhooks.scenarios';

/** A finished span as either run mode's test sees it (in-memory exporter, or OTLP/JSON). */
export interface TracedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  service?: string;
}

export interface TracedDelivery {
  traceId: string;
  /** The client's own span: the gateway's request span continues it. */
  clientSpanId: string;
  /** The `traceparent` header the receiver got. */
  received: string;
}

/**
 * One delivery with tracing on (decision 0504): a webhook, an event published through the admin
 * API with the caller's `traceparent`, the receiver's copy. The spans are checked by the caller.
 */
export async function deliverTraced(t: WebhooksScenarioTarget): Promise<TracedDelivery> {
  const user = await makeUser(t, 'write', 'traced');
  const repo = `${user.name}/${uniqueName('traced')}`;
  const path = `/${uniqueName('traced')}`;
  const created = await http(t.baseUrl, 'POST', '/api/settings/webhooks', {
    token: user.token,
    body: { watched: [{ type: 'model', name: repo }], domains: ['repo'], url: t.capture.url(path) },
  });
  expect(created.status).toBe(200);
  const traceId = randomBytes(16).toString('hex');
  const clientSpanId = randomBytes(8).toString('hex');
  const res = await http(t.baseUrl, 'POST', '/admin/events', {
    token: t.adminToken,
    headers: { traceparent: `00-${traceId}-${clientSpanId}-01` },
    body: { subject: 'hub.events.repo.update', payload: repoEvent(repo) },
  });
  expect(res.status).toBeLessThan(300);
  const [got] = await t.capture.waitFor(path, 1);
  return { traceId, clientSpanId, received: String(got.headers['traceparent']) };
}

/** Polls `spans` until the delivery's outcome span is there (exporters batch), with a generous cap. */
export async function spansOf(spans: () => Promise<TracedSpan[]>, traceId: string): Promise<TracedSpan[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const mine = (await spans()).filter((s) => s.traceId === traceId);
    if (mine.some((s) => s.name === 'webhooks.outcome') || Date.now() > deadline) return mine;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The chain: client → gateway request span → (an RPC server span, distributed) → intake → queue
 * and attempt → outcome; the receiver's traceparent names the attempt span.
 */
export function expectDeliveryChain(spans: TracedSpan[], d: TracedDelivery): void {
  const one = (name: string): TracedSpan => {
    const found = spans.filter((s) => s.name === name);
    expect({ name, count: found.length }).toEqual({ name, count: 1 });
    return found[0];
  };
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const request = one('POST /admin/events');
  expect(request.parentSpanId).toBe(d.clientSpanId);
  const intake = one('webhooks.intake');
  // The intake's ancestors lead to the request span (through the organizations RPC that publishes).
  const ancestors: string[] = [];
  for (let s = byId.get(intake.parentSpanId ?? ''); s; s = byId.get(s.parentSpanId ?? '')) ancestors.push(s.name);
  expect(ancestors[ancestors.length - 1]).toBe('POST /admin/events');
  expect(one('webhooks.queue').parentSpanId).toBe(intake.spanId);
  const attempt = one('webhooks.attempt');
  expect(attempt.parentSpanId).toBe(intake.spanId);
  expect(one('webhooks.outcome').parentSpanId).toBe(attempt.spanId);
  expect(d.received).toBe(`00-${d.traceId}-${attempt.spanId}-01`);
}
