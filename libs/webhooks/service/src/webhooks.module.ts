import { type DynamicModule, Module } from '@nestjs/common';
import { DeliveryModule } from './delivery/delivery.module';
import { ManagementModule } from './management/management.module';
import { OptionsModule } from './options/options.module';
import { RecoveryModule } from './recovery/recovery.module';
import { type WebhooksConfig } from './webhooks.config';
import { WebhooksCoreModule } from './webhooks-core.module';

/** The areas of the service, one module each: its use cases (each serving its RPC), consumers and workers. */
const AREAS = [ManagementModule, DeliveryModule, OptionsModule, RecoveryModule];

/**
 * Webhooks: management, matching of hub events, at-least-once delivery, the delivery log, delivery
 * options and bulk recovery: every area on one shared core (DataSource, outbox, config, SecretBox).
 */
@Module({})
export class WebhooksModule {
  static forRoot(config: WebhooksConfig): DynamicModule {
    const core = WebhooksCoreModule.forRoot(config);
    return { module: WebhooksModule, imports: AREAS.map((area) => area.register(core)) };
  }
}
