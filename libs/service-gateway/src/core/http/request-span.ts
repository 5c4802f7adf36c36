import { context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { type FastifyInstance, type FastifyRequest } from 'fastify';
import { contextFromTraceparent, hubTracer, isTracingOn } from '@hub/messaging';

/**
 * One server span per request when tracing is on (decision 0504), continuing the caller's
 * `traceparent` if it sends one. Started at onRequest (the timing), made the active context at
 * preHandler: the body arrives on the socket's own async context, so a context set before it would
 * not reach the handler; from preHandler Fastify calls the handler within ours.
 */
export function traceRequests(fastify: FastifyInstance): void {
  if (!isTracingOn()) return;
  const spans = new WeakMap<FastifyRequest, { span: Span; parent: ReturnType<typeof contextFromTraceparent> }>();
  fastify.addHook('onRequest', (req, _reply, done) => {
    const header = req.headers['traceparent'];
    const parent = contextFromTraceparent(typeof header === 'string' ? header : undefined);
    const span = hubTracer().startSpan(
      `${req.method} ${req.routeOptions.url ?? 'unmatched'}`,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method, 'url.path': req.url.split('?')[0] } },
      parent,
    );
    spans.set(req, { span, parent });
    done();
  });
  fastify.addHook('preHandler', (req, _reply, done) => {
    const s = spans.get(req);
    if (!s) return done();
    context.with(trace.setSpan(s.parent, s.span), done);
  });
  fastify.addHook('onResponse', (req, reply, done) => {
    const s = spans.get(req);
    if (s) {
      s.span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) s.span.setStatus({ code: SpanStatusCode.ERROR });
      s.span.end();
    }
    done();
  });
}
