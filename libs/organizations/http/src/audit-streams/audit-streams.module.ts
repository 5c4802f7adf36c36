import { Module } from '@nestjs/common';
import { AuditStreamsController } from './audit-streams.controller';

/** `/api/organizations/{name}/audit-log/streams…` (issue 39). */
@Module({ controllers: [AuditStreamsController] })
export class AuditStreamsApiModule {}
