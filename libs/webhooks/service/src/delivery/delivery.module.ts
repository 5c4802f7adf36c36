import { type DynamicModule, Module } from '@nestjs/common';
import { EventIntake } from '../intake/event-intake';
import { IntakeBatch } from '../intake/intake-batch';
import { IntakeWatermark } from '../intake/intake-watermark';
import { PrivateRepoAccess } from '../intake/private-repo-access';
import { PacedClaim } from '../options/paced-claim';
import { DeliveryAttempts } from './delivery-attempts';
import { DeliveryMetrics } from './delivery-metrics';
import { DeliveryWorker } from './delivery-worker';
import { ListDeliveriesUseCase } from './list-deliveries.use-case';
import { ListDeliveryLogsUseCase } from './list-delivery-logs.use-case';
import { OutcomeRecorder } from './outcome-recorder';
import { ReplayDeliveryUseCase } from './replay-delivery.use-case';
import { TestDeliveryUseCase } from './test-delivery.use-case';
import { WebhookHealth } from './webhook-health';

/**
 * Delivery: the intake of hub events (`intake/`, which feeds the worker and may lease it rows,
 * decision 0510), the queue and its worker with the paced claim (`options/paced-claim.ts`, the
 * worker's only user), attempts, outcomes, suspension, metrics, the delivery log, replay and the
 * test event. Other areas wake the worker through the core's `DeliveryWake`.
 */
@Module({})
export class DeliveryModule {
  /** `core`: the service's shared `WebhooksCoreModule` (DataSource, outbox, config, SecretBox). */
  static register(core: DynamicModule): DynamicModule {
    return {
      module: DeliveryModule,
      imports: [core],
      providers: [
        PacedClaim,
        DeliveryAttempts,
        DeliveryMetrics,
        OutcomeRecorder,
        WebhookHealth,
        DeliveryWorker,
        EventIntake,
        IntakeBatch,
        IntakeWatermark,
        PrivateRepoAccess,
        ListDeliveryLogsUseCase,
        ListDeliveriesUseCase,
        ReplayDeliveryUseCase,
        TestDeliveryUseCase,
      ],
    };
  }
}
