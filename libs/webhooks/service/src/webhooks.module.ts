import { type DynamicModule, Module } from '@nestjs/common';
import { OutboxModule } from '@hub/messaging';
import { persistenceOptions, ServicePersistenceModule, type ServicePersistenceOptions } from '@hub/persistence';
import { WEBHOOKS_MIGRATIONS } from './migrations';
import { MANAGEMENT_PROVIDERS, WebhookHeadersHandler, WebhooksHandler } from './management';
import { RECOVERY_PROVIDERS, RecoveryHandler } from './recovery';
import { DeliveryOptionsHandler, OPTIONS_PROVIDERS } from './options';
import { SecretBox } from '@hub/config';
import { type WebhooksConfig } from './webhooks.config';
import { WEBHOOKS_CONFIG, WEBHOOKS_DS } from './webhooks.di';
import { DELIVERY_PROVIDERS, DeliveryLogHandler } from './delivery';

export const WEBHOOKS_SCHEMA = 'webhooks';

export function webhooksPersistence(config: WebhooksConfig): ServicePersistenceOptions {
  // Plain SQL on purpose (the queue's claims need FOR UPDATE SKIP LOCKED): no entities.
  return persistenceOptions(
    { name: WEBHOOKS_DS, schema: WEBHOOKS_SCHEMA, entities: [], migrations: WEBHOOKS_MIGRATIONS },
    config,
  );
}

/** Webhooks: management, matching of hub events, at-least-once delivery, the delivery log. */
@Module({})
export class WebhooksModule {
  static forRoot(config: WebhooksConfig): DynamicModule {
    if (!config.HUB_SECRET_KEY) throw new Error('HUB_SECRET_KEY is required: it encrypts webhook secrets at rest');
    const key = config.HUB_SECRET_KEY;
    return {
      module: WebhooksModule,
      imports: [
        ServicePersistenceModule.forService(webhooksPersistence(config)),
        OutboxModule.forService({ dataSource: WEBHOOKS_DS, schema: WEBHOOKS_SCHEMA }),
      ],
      controllers: [
        WebhooksHandler,
        DeliveryLogHandler,
        WebhookHeadersHandler,
        RecoveryHandler,
        DeliveryOptionsHandler,
      ],
      providers: [
        { provide: WEBHOOKS_CONFIG, useValue: config },
        { provide: SecretBox, useValue: new SecretBox(key, 'hub-webhook-secrets') },
        ...MANAGEMENT_PROVIDERS,
        ...RECOVERY_PROVIDERS,
        ...OPTIONS_PROVIDERS,
        ...DELIVERY_PROVIDERS,
      ],
    };
  }
}
