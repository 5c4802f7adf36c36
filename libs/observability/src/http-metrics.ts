import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/** One registry per app: default process metrics plus HTTP request counts and latencies. */
export class HttpMetrics {
  readonly registry = new Registry();
  readonly requests: Counter<'method' | 'route' | 'status'>;
  readonly duration: Histogram<'method' | 'route'>;

  constructor(app: string) {
    this.registry.setDefaultLabels({ app });
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'hub_http_requests_total',
      help: 'HTTP requests answered',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
    this.duration = new Histogram({
      name: 'hub_http_request_duration_seconds',
      help: 'HTTP request latency',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [this.registry],
    });
  }

  /** The counter and histogram children of each method, route and status, looked up once. */
  private readonly children = new Map<string, { count: { inc(): void }; time: { observe(seconds: number): void } }>();

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let child = this.children.get(key);
    if (!child) {
      // prom-client hashes the label object on every inc and observe; routes are patterns, so few keys.
      child = {
        count: this.requests.labels({ method, route, status: String(status) }),
        time: this.duration.labels({ method, route }),
      };
      this.children.set(key, child);
    }
    child.count.inc();
    child.time.observe(seconds);
  }
}
