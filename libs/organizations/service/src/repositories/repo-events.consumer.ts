import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type AuditEventType, type RequestContext, Streams } from '@hub/contracts';
import { type RepoEventPayload, RepoEvents, type UpsertRepositoryRpc } from '@hub/organizations-contract';
import { EventBus, Outbox, type Unsubscribe } from '@hub/messaging';
import { type DataSource, type EntityManager } from 'typeorm';
import { recordAudit } from '../audit/record-audit';
import { type OrganizationEntity } from '../organizations/organization.entity';
import { ORGANIZATIONS_DS } from '../organizations.di';
import { OrganizationsStore } from '../organizations/organizations.store';
import { ownerOf, RepositoriesStore } from './repositories.store';

/** The audit type of a repo event, when it is one the audit log keeps. */
function auditTypeOf(e: RepoEventPayload): AuditEventType | undefined {
  switch (e.event.action) {
    case 'create':
      return 'repo.create';
    case 'delete':
      return 'repo.delete';
    case 'move':
      return 'repo.move';
    case 'update':
      return e.event.scope === 'repo.config' ? 'repo.update_settings' : undefined;
    default:
      return undefined;
  }
}

/**
 * Keeps the catalogue in step with `hub.events.repo.*` (durable: an event published while this
 * service is down is applied when it comes back; applying one twice leaves the same row) and
 * records the repository events of organizations in their audit log, in the same transaction.
 */
@Injectable()
export class RepoEventsConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private stop?: Unsubscribe;

  constructor(
    private readonly events: EventBus,
    private readonly outbox: Outbox,
    @InjectDataSource(ORGANIZATIONS_DS) private readonly ds: DataSource,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.stop = await this.events.consume({
      stream: Streams.Events.name,
      durable: 'organizations-repo-catalogue',
      source: RepoEvents,
      handler: (e, meta) =>
        this.apply(
          e,
          { requestId: `repo-event-${meta.msgId ?? 'unknown'}`.slice(0, 128).replace(/[^A-Za-z0-9._:-]/g, '-') },
          meta.msgId,
        ),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop?.();
  }

  /**
   * Applies one event. With its bus id, an event applied before (a redelivery after a crash
   * between commit and ack, a second publish of the same id) changes nothing and records no
   * second audit event: the id is kept in the same transaction (or statement) as the change.
   */
  async apply(e: RepoEventPayload, ctx: RequestContext, msgId?: string): Promise<void> {
    const type = auditTypeOf(e);
    // A push and any other change the audit log does not keep (deletes and moves all are): one
    // statement, the id and the row.
    if (!type) {
      await RepositoriesStore.applyUpsert(this.ds.manager, msgId, this.fields(e));
      return;
    }
    await this.outbox.transaction(async (m) => {
      if (msgId && !(await RepositoriesStore.firstTime(m, msgId))) return;
      await this.change(e, m);
      const org = await this.organizationOf(m, e.repo.name);
      if (org) {
        const data = { repo: e.repo.name, type: e.repo.type, ...(e.movedTo ? { movedTo: e.movedTo.name } : {}) };
        await recordAudit(this.outbox, m, ctx, org, type, `${e.repo.type} ${e.repo.name}: ${e.event.action}`, data);
      }
    });
  }

  private async change(e: RepoEventPayload, m: EntityManager): Promise<void> {
    const { repo } = e;
    if (e.event.action === 'delete') return RepositoriesStore.remove(m, repo.type, repo.name);
    if (e.event.action === 'move' && e.movedTo) return RepositoriesStore.move(m, repo.type, repo.name, e.movedTo.name);
    // create, update and anything else that names a repository: it exists (visibility kept unless given).
    await RepositoriesStore.applyUpsert(m, undefined, this.fields(e));
  }

  private fields({ repo }: RepoEventPayload): UpsertRepositoryRpc {
    return {
      type: repo.type,
      name: repo.name,
      visibility: repo.private === undefined ? undefined : repo.private ? 'private' : 'public',
      storage: repo.storage,
    };
  }

  private organizationOf(m: EntityManager, repo: string): Promise<OrganizationEntity | null> {
    return OrganizationsStore.find(m, ownerOf(repo));
  }
}
