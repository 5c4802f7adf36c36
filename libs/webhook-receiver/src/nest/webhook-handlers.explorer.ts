import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { OPEN_ROUTES_WARNING } from '../core/receiver.config';
import { WebhookRegistrationError } from '../core/receiver.errors';
import type { WebhookHandlerFn } from '../core/receiver.types';
import { WebhookDeliveryPipeline } from '../core/webhook-delivery.pipeline';
import { WebhookHandlerRegistry } from '../core/webhook-handler.registry';
import { WEBHOOK_HANDLER_METADATA, type WebhookHandlerMetadata } from './webhook-handler.decorator';
import { WEBHOOK_DELIVERY_PIPELINE, WEBHOOK_HANDLER_REGISTRY } from './webhooks-module.options';

type BoundMethod = (this: object, ...args: Parameters<WebhookHandlerFn>) => unknown;

/**
 * Finds `@WebhookHandler` methods on every provider at start-up and registers them, so a
 * naming mistake (duplicate, invalid) fails the application's start, not a delivery.
 */
@Injectable()
export class WebhookHandlersExplorer implements OnModuleInit {
  private readonly logger = new Logger('Webhooks');

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    @Inject(WEBHOOK_HANDLER_REGISTRY) private readonly registry: WebhookHandlerRegistry,
    @Inject(WEBHOOK_DELIVERY_PIPELINE) private readonly pipeline: WebhookDeliveryPipeline,
  ) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      const prototype: unknown = instance ? Object.getPrototypeOf(instance) : wrapper.metatype?.prototype;
      if (!isObject(prototype)) continue;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const fn = prototype[method];
        if (typeof fn !== 'function') continue;
        const meta = this.reflector.get<WebhookHandlerMetadata | undefined>(WEBHOOK_HANDLER_METADATA, fn);
        if (!meta) continue;
        // A request- or transient-scoped provider has no instance to call outside a request.
        if (!wrapper.isDependencyTreeStatic() || !isObject(instance)) {
          throw new WebhookRegistrationError(
            `@WebhookHandler ${String(wrapper.name)}.${method}: the provider must be a singleton (default scope).`,
          );
        }
        const bound = fn as BoundMethod;
        this.registry.add((payload, context) => bound.call(instance, payload, context), meta.name ?? method);
      }
    }
    if (!this.pipeline.secured) this.logger.warn(OPEN_ROUTES_WARNING);
    const routes = this.registry.names().map((name) => `POST /webhooks/${name}`);
    this.logger.log(`Webhook routes: ${routes.join(', ') || 'none (no @WebhookHandler found)'}`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
