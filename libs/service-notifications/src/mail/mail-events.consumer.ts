import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import {
  CredentialsRpc, Events, type JobStatusEvent, WebhookEvents, OrganizationsRpc, type RequestContext, Streams, type UserView,
  type WebhookSuspendedEvent,
} from '@hub/contracts';
import { EventBus, type EventMeta, RpcClient, type Unsubscribe } from '@hub/messaging';
import { newObjectId } from '@hub/persistence';
import { type NotificationsConfig } from '../notifications.config';
import { NOTIFICATIONS_CONFIG, NOTIFICATIONS_DS } from '../notifications.tokens';
import { settingOf, type SettingValues } from '../settings/settings.defaults';
import { jobStatusMail, type MailText, webhookSuspendedMail } from './mail-templates';
import { NotificationsMailer } from './notifications-mailer';

/**
 * E-mails for facts of other services: a suspended webhook (to its owner, or an organization's
 * admins) and a job's status change (to its owner when job_status is on). Each event mails once:
 * its id is recorded with the mails in one transaction.
 */
@Injectable()
export class MailEventsConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private stops: Unsubscribe[] = [];

  constructor(
    private readonly bus: EventBus,
    private readonly rpc: RpcClient,
    private readonly mailer: NotificationsMailer,
    @InjectDataSource(NOTIFICATIONS_DS) private readonly ds: DataSource,
    @Inject(NOTIFICATIONS_CONFIG) private readonly config: NotificationsConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.stops = await Promise.all([
      this.bus.consume({
        stream: Streams.Webhooks.name, durable: 'notifications-webhook-suspended', source: WebhookEvents.Suspended,
        handler: (e, meta) => this.onWebhookSuspended(e, meta),
      }),
      this.bus.consume({
        stream: Streams.Jobs.name, durable: 'notifications-job-status', source: Events.JobStatus,
        handler: (e, meta) => this.onJobStatus(e, meta),
      }),
    ]);
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.stops.map((s) => s()));
    this.stops = [];
  }

  private async onWebhookSuspended(e: WebhookSuspendedEvent, meta: EventMeta): Promise<void> {
    const ctx = contextFor(meta);
    const recipients = e.ownerType === 'org' ? await this.orgAdmins(e.ownerName, ctx) : [await this.user(e.ownerName, ctx)];
    await this.send(`webhook-suspended:${meta.msgId ?? `${e.webhookId}:${e.suspendedAt}`}`, recipients, webhookSuspendedMail(e, this.config.publicUrl));
  }

  private async onJobStatus(e: JobStatusEvent, meta: EventMeta): Promise<void> {
    // The user who started it; an organization's job mails whoever started it, never the org.
    const owner = await this.user(e.createdByName ?? e.namespace, contextFor(meta));
    const rows: { values: SettingValues }[] = await this.ds.query('SELECT values FROM notifications.settings WHERE user_id = $1', [owner.id]);
    if (!settingOf(rows[0]?.values, 'job_status')) return;
    await this.send(`job-status:${meta.msgId ?? `${e.jobId}:${e.stage}:${e.at}`}`, [owner], jobStatusMail(e, this.config.publicUrl));
  }

  private user(name: string, ctx: RequestContext): Promise<UserView> {
    return this.rpc.call(CredentialsRpc.GetUser, { name }, ctx);
  }

  private async orgAdmins(organization: string, ctx: RequestContext): Promise<UserView[]> {
    const members = await this.rpc.call(OrganizationsRpc.ListMembers, { organization }, ctx);
    return Promise.all(members.filter((m) => m.role === 'admin').map((m) => this.user(m.user, ctx)));
  }

  private async send(key: string, recipients: UserView[], mail: MailText): Promise<void> {
    const sent = await this.ds.transaction(async (m) => {
      const fresh: unknown[] = await m.query(
        'INSERT INTO notifications.applied_events (id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING id', [key.slice(0, 140)],
      );
      if (fresh.length === 0) return false;
      for (const r of recipients) await this.mailer.enqueue(m, { id: newObjectId(), recipient: r.email, ...mail });
      return true;
    });
    if (sent) this.mailer.kick();
  }
}

function contextFor(meta: EventMeta): RequestContext {
  return { requestId: `notifications-${(meta.msgId ?? String(Date.now())).replace(/[^A-Za-z0-9._:-]/g, '').slice(0, 100)}` };
}
