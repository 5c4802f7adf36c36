import { AuditStreamAccess } from './audit-stream-access';
import { AuditStreamCursorStore } from './audit-stream-cursor.store';
import { AuditStreamHealth } from './audit-stream-health';
import { AuditStreamWorker } from './audit-stream.worker';
import { AuditStreamsStore } from './audit-streams.store';
import { CreateAuditStreamUseCase } from './create-audit-stream.use-case';
import { AuditSenders } from './destinations/audit-senders';
import {
  DeleteAuditStreamUseCase,
  GetAuditStreamUseCase,
  ListAuditStreamDeliveriesUseCase,
  ListAuditStreamsUseCase,
  SetAuditStreamStateUseCase,
} from './manage-audit-streams.use-cases';
import { TestAuditStreamUseCase } from './test-audit-stream.use-case';
import { UpdateAuditStreamUseCase } from './update-audit-stream.use-case';

/** Everything the feature provides, declared once for the module. */
export const AUDIT_STREAMS_PROVIDERS = [
  AuditStreamsStore,
  AuditStreamAccess,
  AuditSenders,
  AuditStreamCursorStore,
  AuditStreamHealth,
  AuditStreamWorker,
  ListAuditStreamsUseCase,
  CreateAuditStreamUseCase,
  GetAuditStreamUseCase,
  UpdateAuditStreamUseCase,
  DeleteAuditStreamUseCase,
  SetAuditStreamStateUseCase,
  TestAuditStreamUseCase,
  ListAuditStreamDeliveriesUseCase,
];
