import { EventIntake } from '../intake/event-intake';
import { IntakeBatch } from '../intake/intake-batch';
import { IntakeWatermark } from '../intake/intake-watermark';
import { PrivateRepoAccess } from '../intake/private-repo-access';
import { DeliveryAttempts } from './delivery-attempts';
import { DeliveryMetrics } from './delivery-metrics';
import { DeliveryQueue } from './delivery-queue';
import { DeliveryWorker } from './delivery-worker';
import { ListDeliveriesUseCase } from './list-deliveries.use-case';
import { ListDeliveryLogsUseCase } from './list-delivery-logs.use-case';
import { ReplayDeliveryUseCase } from './replay-delivery.use-case';
import { TestDeliveryUseCase } from './test-delivery.use-case';
import { OutcomeRecorder } from './outcome-recorder';
import { WebhookHealth } from './webhook-health';

export { DeliveryLogHandler } from './delivery-log.handler';

export const DELIVERY_PROVIDERS = [
  DeliveryQueue,
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
];
