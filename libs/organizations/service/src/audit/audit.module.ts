import { type DynamicModule, Module } from '@nestjs/common';
import { AuditIngestConsumer } from './audit-ingest.consumer';
import { AuditLog } from './audit-log';
import { AuditRetention } from './audit-retention';
import { GetAuditPageUseCase } from './get-audit-page.use-case';

/** The audit log: ingest of `hub.audit.>`, export pages, retention. */
@Module({})
export class AuditModule {
  /** `core`: the service's shared `OrganizationsCoreModule` (DataSource, outbox, config). */
  static register(core: DynamicModule): DynamicModule {
    return {
      module: AuditModule,
      imports: [core],
      providers: [AuditLog, AuditRetention, GetAuditPageUseCase, AuditIngestConsumer],
    };
  }
}
