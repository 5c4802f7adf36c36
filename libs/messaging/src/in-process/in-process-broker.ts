import { type Server } from '@nestjs/microservices';

export interface InProcessEndpoint {
  dispatch(pattern: string, message: unknown): Promise<unknown> | undefined;
}

/**
 * Connects in-process RPC clients to the in-process servers of one all-in-one app. Create one
 * per app (not a global), so tests can run several hubs in one process.
 */
export class InProcessBroker {
  private readonly endpoints = new Set<InProcessEndpoint>();

  attach(endpoint: InProcessEndpoint): void {
    this.endpoints.add(endpoint);
  }

  detach(endpoint: InProcessEndpoint | Server): void {
    this.endpoints.delete(endpoint as InProcessEndpoint);
  }

  /** undefined when nobody handles the pattern, like NATS "no responders". */
  dispatch(pattern: string, message: unknown): Promise<unknown> | undefined {
    for (const endpoint of this.endpoints) {
      const result = endpoint.dispatch(pattern, message);
      if (result !== undefined) return result;
    }
    return undefined;
  }
}
