import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type JobStage, type RequestContext, Streams } from '@hub/contracts';
import { type JobStatusEvent, JobsEvents } from '@hub/jobs-contract';
import { WebhookEvents, type WebhookSuspendedEvent } from '@hub/webhooks-contract';
import { OrganizationsRpc, AuditStreamEvents, type AuditStreamHealthEvent } from '@hub/organizations-contract';
import { CredentialsRpc, type UserView } from '@hub/credentials-contract';
import { EventBus, type EventMeta, RpcClient, type Unsubscribe } from '@hub/messaging';
import { newObjectId } from '@hub/persistence';
import { type NotificationsConfig } from '../notifications.config';
import { NOTIFICATIONS_CONFIG, NOTIFICATIONS_DS } from '../notifications.di';
import { JOB_MAILS_PER_BATCH, JobStatusMails } from './job-status-mails';
import { auditStreamHealthMail, type MailText, webhookSuspendedMail } from './mail-templates';
import { NotificationsMailer } from './notifications-mailer';

/**
 * E-mails for facts of other services: a suspended webhook (to its owner, or an organization's
 * admins), an audit log stream failing or recovering (to its organization's admins) and a job's
 * end (to the user who started it when job_status is on; in batches, job-status-mails.ts). Each
 * event mails once: its id is recorded with the mails in one statement.
 */
@Injectable()
export class MailEventsConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private stops: Unsubscribe[] = [];
  private readonly jobMails: JobStatusMails;

  constructor(
    private readonly bus: EventBus,
    private readonly rpc: RpcClient,
    private readonly mailer: NotificationsMailer,
    @InjectDataSource(NOTIFICATIONS_DS) ds: DataSource,
    @Inject(NOTIFICATIONS_CONFIG) private readonly config: NotificationsConfig,
  ) {
    this.jobMails = new JobStatusMails(ds, mailer, (name, ctx) => this.user(name, ctx), config.publicUrl);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.stops = await Promise.all([
      this.bus.consume({
        stream: Streams.Webhooks.name,
        durable: 'notifications-webhook-suspended',
        source: WebhookEvents.Suspended,
        handler: (e, meta) => this.onWebhookSuspended(e, meta),
      }),
      this.bus.consume({
        stream: Streams.Jobs.name,
        durable: 'notifications-job-status',
        source: JobsEvents.JobStatus,
        // Many at once: their mails are written in batches (job-status-mails.ts).
        concurrency: JOB_MAILS_PER_BATCH,
        handler: (e, meta) => this.onJobStatus(e, meta),
      }),
      this.bus.consume({
        stream: Streams.Organizations.name,
        durable: 'notifications-audit-stream-health',
        source: AuditStreamEvents.Health,
        handler: (e, meta) => this.onAuditStreamHealth(e, meta),
      }),
    ]);
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.stops.map((s) => s()));
    this.stops = [];
  }

  private async onWebhookSuspended(e: WebhookSuspendedEvent, meta: EventMeta): Promise<void> {
    const ctx = contextFor(meta);
    const recipients =
      e.ownerType === 'org' ? await this.orgAdmins(e.ownerName, ctx) : [await this.user(e.ownerName, ctx)];
    await this.send(
      `webhook-suspended:${meta.msgId ?? `${e.webhookId}:${e.suspendedAt}`}`,
      recipients,
      webhookSuspendedMail(e, this.config.publicUrl),
    );
  }

  private async onAuditStreamHealth(e: AuditStreamHealthEvent, meta: EventMeta): Promise<void> {
    await this.send(
      `audit-stream-health:${meta.msgId ?? `${e.streamId}:${e.state}:${e.at}`}`,
      await this.orgAdmins(e.organization, contextFor(meta)),
      auditStreamHealthMail(e, this.config.publicUrl),
    );
  }

  private async onJobStatus(e: JobStatusEvent, meta: EventMeta): Promise<void> {
    if (!MAILED_JOB_STAGES.has(e.stage)) return;
    await this.jobMails.add({
      event: e,
      key: `job-status:${meta.msgId ?? `${e.jobId}:${e.stage}:${e.at}`}`,
      ctx: contextFor(meta),
    });
  }

  private user(name: string, ctx: RequestContext): Promise<UserView> {
    return this.rpc.call(CredentialsRpc.GetUser, { name }, ctx);
  }

  private async orgAdmins(organization: string, ctx: RequestContext): Promise<UserView[]> {
    const members = await this.rpc.call(OrganizationsRpc.ListMembers, { organization }, ctx);
    return Promise.all(members.filter((m) => m.role === 'admin').map((m) => this.user(m.user, ctx)));
  }

  private async send(key: string, recipients: UserView[], mail: MailText): Promise<void> {
    await this.mailer.enqueueOnce(
      'notifications.applied_events',
      key.slice(0, 140),
      recipients.map((r) => ({ id: newObjectId(), recipient: r.email, ...mail })),
    );
  }
}

/** A job mails when it ends; SCHEDULING, RUNNING and retried attempts do not (decision 0403). */
const MAILED_JOB_STAGES: ReadonlySet<JobStage> = new Set(['COMPLETED', 'ERROR', 'CANCELED']);

function contextFor(meta: EventMeta): RequestContext {
  return {
    requestId: `notifications-${(meta.msgId ?? String(Date.now())).replace(/[^A-Za-z0-9._:-]/g, '').slice(0, 100)}`,
  };
}
