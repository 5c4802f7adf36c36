import { type DynamicModule, Logger, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { resolveWebhookSecret } from '../core/receiver.config';
import type { ReceiverLogger } from '../core/receiver.types';
import { WebhookDeliveryPipeline } from '../core/webhook-delivery.pipeline';
import { WebhookHandlerRegistry } from '../core/webhook-handler.registry';
import { WebhookHandlersExplorer } from './webhook-handlers.explorer';
import { WebhooksController } from './webhooks.controller';
import {
  WEBHOOK_DELIVERY_PIPELINE,
  WEBHOOK_HANDLER_REGISTRY,
  WEBHOOKS_MODULE_OPTIONS,
  type WebhooksModuleOptions,
} from './webhooks-module.options';

/**
 * Serves `POST /webhooks/<name>` for every `@WebhookHandler` method of the application's
 * providers, with the same rules as the standalone server.
 */
@Module({})
export class WebhooksModule {
  static forRoot(options: WebhooksModuleOptions = {}): DynamicModule {
    return {
      module: WebhooksModule,
      imports: [DiscoveryModule],
      controllers: [WebhooksController],
      providers: [
        { provide: WEBHOOKS_MODULE_OPTIONS, useValue: options },
        { provide: WEBHOOK_HANDLER_REGISTRY, useFactory: () => new WebhookHandlerRegistry() },
        {
          provide: WEBHOOK_DELIVERY_PIPELINE,
          inject: [WEBHOOK_HANDLER_REGISTRY],
          useFactory: (registry: WebhookHandlerRegistry) =>
            new WebhookDeliveryPipeline({
              secret: resolveWebhookSecret(options.secret),
              registry,
              logger: nestLogger(new Logger('Webhooks')),
              toleranceSeconds: options.toleranceSeconds,
              seenIdsCapacity: options.seenIdsCapacity,
            }),
        },
        WebhookHandlersExplorer,
      ],
    };
  }
}

function nestLogger(logger: Logger): ReceiverLogger {
  return {
    log: (message) => logger.log(message),
    warn: (message) => logger.warn(message),
    error: (message, error) => logger.error(message, error instanceof Error ? error.stack : String(error)),
  };
}
