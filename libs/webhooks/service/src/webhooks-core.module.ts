import { type DynamicModule, Module } from '@nestjs/common';
import { SecretBox } from '@hub/config';
import { OutboxModule } from '@hub/messaging';
import { persistenceOptions, ServicePersistenceModule, type ServicePersistenceOptions } from '@hub/persistence';
import { DeliveryWake } from './delivery/delivery-wake';
import { WEBHOOKS_MIGRATIONS } from './migrations';
import { type WebhooksConfig } from './webhooks.config';
import { WEBHOOKS_CONFIG, WEBHOOKS_DS } from './webhooks.di';

export const WEBHOOKS_SCHEMA = 'webhooks';

export function webhooksPersistence(config: WebhooksConfig): ServicePersistenceOptions {
  // Plain SQL on purpose (the queue's claims need FOR UPDATE SKIP LOCKED): no entities.
  return persistenceOptions(
    { name: WEBHOOKS_DS, schema: WEBHOOKS_SCHEMA, entities: [], migrations: WEBHOOKS_MIGRATIONS },
    config,
  );
}

/**
 * What every area of the service shares: the DataSource of schema `webhooks`, its outbox and relay,
 * the config (`WEBHOOKS_CONFIG`), the `SecretBox` sealing webhook secrets and custom headers, and
 * the delivery worker's wake (`DeliveryWake`). Made once by `WebhooksModule.forRoot`, and that one
 * object is imported by every area module (Nest keys a dynamic module by its reference: one instance).
 */
@Module({})
export class WebhooksCoreModule {
  static forRoot(config: WebhooksConfig): DynamicModule {
    if (!config.HUB_SECRET_KEY) throw new Error('HUB_SECRET_KEY is required: it encrypts webhook secrets at rest');
    const outbox = OutboxModule.forService({ dataSource: WEBHOOKS_DS, schema: WEBHOOKS_SCHEMA });
    return {
      module: WebhooksCoreModule,
      imports: [ServicePersistenceModule.forService(webhooksPersistence(config)), outbox],
      providers: [
        { provide: WEBHOOKS_CONFIG, useValue: config },
        { provide: SecretBox, useValue: new SecretBox(config.HUB_SECRET_KEY, 'hub-webhook-secrets') },
        DeliveryWake,
      ],
      exports: [WEBHOOKS_CONFIG, SecretBox, DeliveryWake, outbox],
    };
  }
}
