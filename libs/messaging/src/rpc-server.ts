import { type BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { MetadataScanner, ModulesContainer } from '@nestjs/core';
import { type Msg, type NatsConnection, type Subscription } from 'nats';
import { queueGroup } from '@hub/contracts';
import { type BusMode } from './bus-mode';
import { BUS_MODE, NATS_CONNECTION } from './messaging.di';
import { type PublishQueue, publishQueueFor } from './rpc/publish-queue';
import { RpcDispatcher, type RpcRoute } from './rpc/rpc-dispatcher';
import { rpcDescriptorOf } from './rpc/rpc-handler.decorators';

/**
 * Serves the app's @RpcHandler methods: over NATS, one subscription per subject in the
 * service's queue group (replicas share the load), or in-process for the all-in-one mode.
 * Call `listen(service)` once the app is initialised (runService, createHub).
 */
@Injectable()
export class RpcServer implements BeforeApplicationShutdown {
  private readonly logger = new Logger('RpcServer');
  private readonly dispatcher = new RpcDispatcher();
  private readonly subscriptions: Subscription[] = [];
  private readonly stops: (() => void)[] = [];
  /** Replies being worked out (a callback subscription's drain does not wait for them). */
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly modules: ModulesContainer,
    @Inject(BUS_MODE) private readonly mode: BusMode,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection | null,
  ) {}

  async listen(service: string): Promise<void> {
    const routes = this.discover();
    if (this.mode.kind === 'nats' && this.nc) {
      const nc = this.nc;
      const queue = queueGroup(service);
      const replies = publishQueueFor(nc);
      for (const route of routes) {
        // A callback rather than an async iterator: no promise per message before the handler runs.
        const callback = (err: Error | null, msg: Msg): void => {
          if (err) this.logger.error({ err, subject: route.subject }, 'RPC subscription failed');
          else {
            const replied = this.reply(route, msg, replies).finally(() => this.inFlight.delete(replied));
            this.inFlight.add(replied);
          }
        };
        this.subscriptions.push(nc.subscribe(route.subject, { queue, callback }));
      }
      await nc.flush(); // subscribed on the server before anyone is told we are up
      this.logger.log(`serving ${routes.length} RPC subject(s) over NATS, queue group ${queue}`);
    } else if (this.mode.kind === 'in-process') {
      const broker = this.mode.broker;
      for (const route of routes) {
        broker.serve(route.subject, (message) => this.dispatcher.handleCopy(route, message));
        this.stops.push(() => broker.stop(route.subject));
      }
      this.logger.log(`serving ${routes.length} RPC subject(s) in-process`);
    }
  }

  /**
   * Stops taking requests and lets those in flight answer, before the database and the NATS
   * connection close (onApplicationShutdown): a subscription's drain only hands its last messages
   * to the callback, so the handlers still running are awaited here, then their replies' write.
   * Else a request taken just before a replica stops (a rolling update) failed as an internal
   * error, its handler's database closed under it.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stops.splice(0).forEach((stop) => stop());
    await Promise.all(this.subscriptions.splice(0).map((s) => (s.isClosed() ? undefined : s.drain())));
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    // The replies go out in the check phase (PublishQueue): let it run before the connection drains.
    await new Promise((resolve) => setImmediate(resolve));
  }

  private async reply(route: RpcRoute, msg: Msg, queue: PublishQueue): Promise<void> {
    const answer = await this.dispatcher.handle(route, msg.string());
    // Replies of one event-loop turn share a socket write (PublishQueue).
    if (msg.reply)
      queue.publish({
        subject: msg.reply,
        payload: answer,
        onError: (err) => this.logger.error({ err, subject: route.subject }, 'RPC reply failed'),
      });
  }

  /** Every @RpcHandler method of the app's controllers and providers, bound to its instance. */
  private discover(): RpcRoute[] {
    const scanner = new MetadataScanner();
    const seen = new Set<object>();
    const routes = new Map<string, RpcRoute>();
    for (const module of this.modules.values()) {
      for (const wrapper of [...module.controllers.values(), ...module.providers.values()]) {
        const instance: unknown = wrapper.instance;
        if (
          typeof instance !== 'object' ||
          instance === null ||
          seen.has(instance) ||
          !wrapper.isDependencyTreeStatic()
        )
          continue;
        seen.add(instance);
        const proto = Object.getPrototypeOf(instance) as object | null;
        if (!proto) continue;
        for (const key of scanner.getAllMethodNames(proto)) {
          const method: unknown = (instance as Record<string, unknown>)[key];
          const rpc = rpcDescriptorOf(method);
          if (!rpc || typeof method !== 'function') continue;
          if (routes.has(rpc.subject)) throw new Error(`Two handlers serve ${rpc.subject}`);
          const invoke = method.bind(instance) as RpcRoute['invoke'];
          routes.set(rpc.subject, { subject: rpc.subject, request: rpc.request, invoke });
        }
      }
    }
    return [...routes.values()];
  }
}
