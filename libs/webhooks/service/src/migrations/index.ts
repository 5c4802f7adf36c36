import { CreateWebhooks1764000000000 } from './1764000000000-create-webhooks';
import { CreateWebhooksOutbox1764000100000 } from './1764000100000-create-outbox';
import { CreateTriggerCounts1764000200000 } from './1764000200000-trigger-counts';
import { DeliveryLogSearch1795697703957 } from './1795697703957-delivery-log-search';
import { CustomHeaders1795697703958 } from './1795697703958-custom-headers';
import { Recoveries1795697703959 } from './1795697703959-recoveries';
import { DeliveryOptions1795697703960 } from './1795697703960-delivery-options';
import { DeliveryTrace1795697703961 } from './1795697703961-delivery-trace';
import { DeliveryLogWords1795718431720 } from './1795718431720-delivery-log-words';
import { FairClaim1795800000000 } from './1795800000000-fair-claim';
import { RecoverySkipped1795800000001 } from './1795800000001-recovery-skipped';
import { PartitionDeliveryLogs1797000100000 } from './1797000100000-partition-delivery-logs';
import { DeliveriesHotClaim1797100000000 } from './1797100000000-deliveries-hot-claim';

/** In order. Never edit one that has landed; add a new one (style.md rule 7). */
export const WEBHOOKS_MIGRATIONS = [
  CreateWebhooks1764000000000,
  CreateWebhooksOutbox1764000100000,
  CreateTriggerCounts1764000200000,
  DeliveryLogSearch1795697703957,
  CustomHeaders1795697703958,
  Recoveries1795697703959,
  DeliveryOptions1795697703960,
  DeliveryTrace1795697703961,
  DeliveryLogWords1795718431720,
  FairClaim1795800000000,
  RecoverySkipped1795800000001,
  PartitionDeliveryLogs1797000100000,
  DeliveriesHotClaim1797100000000,
];
