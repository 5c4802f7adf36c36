import { type RpcReply } from '../rpc/rpc-wire';

/**
 * Serves one subject in-process: the request in as it would be parsed off the bus (a jsonCopy of
 * `{ctx, data}`), the reply out as the caller would decode it, copied the same way (never rejects).
 */
export type InProcessHandler = (message: unknown) => Promise<RpcReply>;

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
  dispatch(subject: string, message: unknown): Promise<RpcReply> | undefined {
    return this.handlers.get(subject)?.(message);
  }
}
