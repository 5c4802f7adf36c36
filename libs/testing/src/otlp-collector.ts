import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { type TracedSpan } from './scenarios/webhooks-tracing';

interface OtlpJson {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: { stringValue?: string } }[] };
    scopeSpans?: { spans?: { name: string; traceId: string; spanId: string; parentSpanId?: string }[] }[];
  }[];
}

export interface OtlpCollector {
  /** OTEL_EXPORTER_OTLP_ENDPOINT for the apps (they post to /v1/traces under it). */
  endpoint: string;
  spans(): TracedSpan[];
  close(): Promise<void>;
}

/** A stand-in OpenTelemetry collector on loopback: OTLP/HTTP with JSON bodies (the http exporter's). */
export async function startOtlpCollector(): Promise<OtlpCollector> {
  const spans: TracedSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpJson;
        for (const rs of body.resourceSpans ?? []) {
          const service = rs.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue;
          for (const ss of rs.scopeSpans ?? [])
            for (const s of ss.spans ?? [])
              spans.push({
                name: s.name,
                traceId: s.traceId,
                spanId: s.spanId,
                parentSpanId: s.parentSpanId || undefined,
                service,
              });
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans: () => [...spans],
    close: () => new Promise((r) => server.close(() => r())),
  };
}
