import { EventIntake } from '../intake/event-intake';
import { DeliveryAttempts } from './delivery-attempts';
import { DeliveryLogStore } from './delivery-log.store';
import { DeliveryMetrics } from './delivery-metrics';
import { DeliveryQueue } from './delivery-queue';
import { DeliveryWorker } from './delivery-worker';
import { WebhookHealth } from './webhook-health';

export { DeliveryLogHandler } from './delivery-log.handler';

export const DELIVERY_PROVIDERS = [DeliveryQueue, DeliveryLogStore, DeliveryAttempts, DeliveryMetrics, WebhookHealth, DeliveryWorker, EventIntake];
