import { Injectable, Logger } from '@nestjs/common';
import { type LeasedStream } from './audit-stream-cursor.store';

/** What happens when a stream turns failing (failing past HUB_AUDIT_STREAM_FAILING_AFTER_S) or recovers. */
@Injectable()
export class AuditStreamHealth {
  private readonly logger = new Logger('AuditStreamHealth');

  async becameFailing(s: LeasedStream, error: string): Promise<void> {
    this.logger.warn({ stream: s.id, organization: s.organization_name, error }, 'audit stream is failing');
  }

  async recovered(s: LeasedStream): Promise<void> {
    this.logger.log({ stream: s.id, organization: s.organization_name }, 'audit stream recovered');
  }
}
