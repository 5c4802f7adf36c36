import { type DynamicModule, Module } from '@nestjs/common';
import { GetDeliveryOptionsUseCase } from './get-delivery-options.use-case';
import { SetDeliveryOptionsUseCase } from './set-delivery-options.use-case';

/** Delivery options per webhook (decision 0503); their claim, `paced-claim.ts`, is the delivery worker's. */
@Module({})
export class OptionsModule {
  /** `core`: the service's shared `WebhooksCoreModule` (DataSource, outbox, config, SecretBox). */
  static register(core: DynamicModule): DynamicModule {
    return {
      module: OptionsModule,
      imports: [core],
      providers: [GetDeliveryOptionsUseCase, SetDeliveryOptionsUseCase],
    };
  }
}
