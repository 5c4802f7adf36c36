import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type SecretBox } from '@hub/config';
import { type AuditStreamRefRpc } from '@hub/organizations-contract';
import { type OrganizationsConfig } from '../organizations.config';
import { ORGANIZATIONS_CONFIG, ORGANIZATIONS_DS } from '../organizations.di';
import { type AuditStreamRow, AuditStreamsStore } from './audit-streams.store';
import { AuditStreamNotFoundError, AuditStreamsDisabledError } from './audit-streams.errors';
import { type Destination, hintOf } from './destination';
import { type OpenDestination } from './destinations/audit-senders';

/** What several use cases share: finding a stream of the organization, sealing and opening credentials. */
@Injectable()
export class AuditStreamAccess {
  private readonly box: SecretBox | null;

  constructor(
    @InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource,
    @Inject(ORGANIZATIONS_CONFIG) readonly config: OrganizationsConfig,
  ) {
    this.box = config.auditStreamBox();
  }

  /** Another organization's stream is 404, like an unknown id. */
  async find(ref: AuditStreamRefRpc): Promise<AuditStreamRow> {
    const row = await AuditStreamsStore.get(this.ds.manager, ref.organizationId, ref.streamId);
    if (!row) throw new AuditStreamNotFoundError(ref.streamId);
    return row;
  }

  /** Sealed credentials and their hints; `kept` are the sealed ones a replace leaves as they are. */
  seal(
    d: Destination,
    kept?: { credentials: Record<string, string>; hints: Record<string, string> },
  ): { credentials: Record<string, string>; hints: Record<string, string> } {
    if (!this.box) throw new AuditStreamsDisabledError();
    return {
      credentials: { ...kept?.credentials, ...this.box.sealMap(d.credentials) },
      hints: { ...kept?.hints, ...Object.fromEntries(Object.entries(d.credentials).map(([k, v]) => [k, hintOf(v)])) },
    };
  }

  open(row: AuditStreamRow, organization: string): OpenDestination {
    if (!this.box) throw new AuditStreamsDisabledError();
    return { type: row.type, settings: row.settings, credentials: this.box.openMap(row.credentials), organization };
  }
}
