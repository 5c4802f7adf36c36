/** Serves one subject in-process: the request's JSON in, the reply out as it would cross NATS (never rejects). */
export type InProcessHandler = (raw: string) => Promise<string | Uint8Array>;

/**
 * Connects in-process RPC clients to the RpcServer of one all-in-one app. Create one per app
 * (not a global), so tests can run several hubs in one process.
 */
export class InProcessBroker {
  private readonly handlers = new Map<string, InProcessHandler>();

  serve(subject: string, handler: InProcessHandler): void {
    if (this.handlers.has(subject)) throw new Error(`${subject} is already served in this process`);
    this.handlers.set(subject, handler);
  }

  stop(subject: string): void {
    this.handlers.delete(subject);
  }

  /** undefined when nobody serves the subject, like NATS "no responders". */
  dispatch(subject: string, raw: string): Promise<string | Uint8Array> | undefined {
    return this.handlers.get(subject)?.(raw);
  }
}
