import { Logger } from '@nestjs/common';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  ConsoleSpanExporter,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { type HubConfig } from '@hub/config';
import { markTracingOn } from '@hub/messaging';

export interface Tracing {
  shutdown(): Promise<void>;
}

let registered: NodeTracerProvider | undefined;

/**
 * OpenTelemetry traces for one app (decision 0504): off unless OTEL_TRACES_EXPORTER is `otlp` or
 * `console` (and OTEL_SDK_DISABLED is not true). Off, nothing is registered: the API's no-op
 * tracer answers, and the hub's hot paths skip their spans altogether (isTracingOn). On, the spans
 * go in batches (the SDK's OTEL_BSP_* variables) to the exporter, which reads its own
 * OTEL_EXPORTER_OTLP_* variables (endpoint, headers, protocol http/protobuf or http/json).
 */
export function startTracing(config: HubConfig, serviceName: string): Tracing | undefined {
  if (config.OTEL_SDK_DISABLED) return undefined;
  const kind = config.OTEL_TRACES_EXPORTER ?? 'none';
  if (kind === 'none') return undefined;
  const exporter: SpanExporter = kind === 'console' ? new ConsoleSpanExporter() : new OTLPTraceExporter();
  const tracing = registerTracing(new BatchSpanProcessor(exporter), config.OTEL_SERVICE_NAME ?? serviceName);
  Logger.log(`${serviceName}: OpenTelemetry traces on (${kind})`);
  return tracing;
}

/**
 * Registers a tracer provider with this span processor (startTracing's, or a test's in-memory
 * one) and the AsyncLocalStorage context manager, and turns the hub's spans on. Once per process.
 */
export function registerTracing(processor: SpanProcessor, serviceName: string): Tracing {
  if (registered) throw new Error('OpenTelemetry tracing is registered already in this process');
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [processor],
  });
  provider.register();
  registered = provider;
  markTracingOn();
  return {
    shutdown: async () => {
      markTracingOn(false);
      await provider.shutdown();
    },
  };
}
