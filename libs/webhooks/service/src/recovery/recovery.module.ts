import { type DynamicModule, Module } from '@nestjs/common';
import { GetRecoveryUseCase } from './get-recovery.use-case';
import { StartRecoveryUseCase } from './start-recovery.use-case';

/** Bulk recovery (decisions 0502 and 0505): start one, read its counts. */
@Module({})
export class RecoveryModule {
  /** `core`: the service's shared `WebhooksCoreModule` (DataSource, outbox, config, SecretBox). */
  static register(core: DynamicModule): DynamicModule {
    return {
      module: RecoveryModule,
      imports: [core],
      providers: [StartRecoveryUseCase, GetRecoveryUseCase],
    };
  }
}
