import { type DynamicModule, Module } from '@nestjs/common';
import { AuditStreamAccess } from './audit-stream-access';
import { AuditStreamHealth } from './audit-stream-health';
import { AuditStreamWorker } from './audit-stream.worker';
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

/**
 * Audit log streams (decision 0411): the streams and their sealed credentials, the worker sending
 * the audit log in order to each destination, the delivery log.
 */
@Module({})
export class AuditStreamsModule {
  /** `core`: the service's shared `OrganizationsCoreModule` (DataSource, outbox, config). */
  static register(core: DynamicModule): DynamicModule {
    return {
      module: AuditStreamsModule,
      imports: [core],
      providers: [
        AuditStreamAccess,
        AuditSenders,
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
      ],
    };
  }
}
