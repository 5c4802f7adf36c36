import { context, type Link, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { type FastifyInstance, type FastifyRequest } from 'fastify';
import { contextFromTraceparent, hubTracer, isTracingOn } from '@hub/messaging';

/** The admin API (operators, the repo area publishing events): trusted callers whose traces go on. */
const CONTINUED = /^\/admin(\/|$)/;

/**
 * One server span per request when tracing is on (decision 0504). A call to the admin API continues
 * the caller's `traceparent`; any other request (users' API calls, decision 0506) starts a trace of
 * its own and keeps the caller's context as a span link, so a client cannot attach the hub's spans
 * to a trace id it knows of, and the caller's trace still leads here. Started at onRequest (the timing), made the active context at
 * preHandler: the body arrives on the socket's own async context, so a context set before it would
 * not reach the handler; from preHandler Fastify calls the handler within ours.
 */
export function traceRequests(fastify: FastifyInstance): void {
  if (!isTracingOn()) return;
  const spans = new WeakMap<FastifyRequest, { span: Span; parent: ReturnType<typeof contextFromTraceparent> }>();
  fastify.addHook('onRequest', (req, _reply, done) => {
    const header = req.headers['traceparent'];
    const caller = contextFromTraceparent(typeof header === 'string' ? header : undefined);
    const path = req.url.split('?')[0];
    const continued = CONTINUED.test(path);
    const callerSpan = trace.getSpanContext(caller);
    const links: Link[] = !continued && callerSpan ? [{ context: callerSpan }] : [];
    const parent = continued ? caller : ROOT_CONTEXT;
    const span = hubTracer().startSpan(
      `${req.method} ${req.routeOptions.url ?? 'unmatched'}`,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': req.method, 'url.path': path },
        links,
        root: !continued,
      },
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
