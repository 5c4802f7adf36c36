import { type EventSource, Events, type RpcDescriptor, Streams } from '@hub/contracts';
import { JobLogLive, JobsRpc, ScheduledJobsRpc, JobsEvents } from '@hub/jobs-contract';
import { WebhooksRpc, WebhookEvents } from '@hub/webhooks-contract';
import {
  AuditRpc,
  AuditStreamsRpc,
  HubEventsRpc,
  McpRpc,
  OrganizationsRpc,
  PapersRpc,
  RepositoriesRpc,
  ResourceGroupsRpc,
  ScimRpc,
  AuditStreamEvents,
  OrganizationsEvents,
  PaperEvents,
  RepoEvents,
} from '@hub/organizations-contract';
import { NotificationsRpc, NotificationSourceEvents, NotificationsEvents } from '@hub/notifications-contract';
import { CredentialsRpc, CredentialsEvents } from '@hub/credentials-contract';

type AnyRpc = RpcDescriptor<unknown, unknown>;
type AnyEvent = EventSource<unknown>;
type StreamSpec = (typeof Streams)[keyof typeof Streams];

/** A durable JetStream consumer a service runs: its stream and name (what it may pull and ack). */
export interface ConsumerGrant {
  stream: StreamSpec;
  durable: string;
  source: AnyEvent;
}

/**
 * What one app does on the bus, by descriptor. The NATS permissions of its user are computed from
 * this (nats-permissions.ts), and nothing else: a subject not reached from here is refused by the
 * server (decision 0013). The contracts tests check every descriptor a service's code names is here.
 */
export interface BusAccess {
  /** RPCs it answers: only this app may subscribe to them. */
  handles: readonly AnyRpc[];
  /** RPCs it calls. */
  calls: readonly AnyRpc[];
  /** Events it publishes (outbox relay or directly). */
  publishes: readonly AnyEvent[];
  /** Events it hears as plain subscriptions (fan-out to every replica, no durable). */
  listens: readonly AnyEvent[];
  /** Durable consumers it runs. */
  consumes: readonly ConsumerGrant[];
}

const all = (group: Record<string, AnyRpc>): AnyRpc[] => Object.values(group);
const rpcs = (...groups: Record<string, AnyRpc>[]): AnyRpc[] => groups.flatMap(all);

/** The apps that run as their own processes, each with its own NATS user. */
export const BUS_SERVICES = ['gateway', 'credentials', 'organizations', 'notifications', 'webhooks', 'jobs'] as const;
export type BusService = (typeof BUS_SERVICES)[number];

export const BusAccessByService: Record<BusService, BusAccess> = {
  gateway: {
    handles: [],
    calls: [
      ...rpcs(OrganizationsRpc, RepositoriesRpc, AuditRpc, AuditStreamsRpc, PapersRpc, McpRpc, ScimRpc, HubEventsRpc),
      // Resource groups: all but the lookup the jobs service makes for a job's resourceGroupId.
      ...all(ResourceGroupsRpc).filter((r) => r !== ResourceGroupsRpc.Get),
      ...rpcs(NotificationsRpc, WebhooksRpc, ScheduledJobsRpc),
      ...all(JobsRpc).filter((r) => r !== JobsRpc.Spec),
      CredentialsRpc.CreateUser,
      CredentialsRpc.GetUser,
      CredentialsRpc.ListUsers,
      CredentialsRpc.CreateToken,
      CredentialsRpc.ListTokens,
      CredentialsRpc.VerifyToken,
      CredentialsRpc.CreateSession,
      CredentialsRpc.VerifySession,
      CredentialsRpc.EndSession,
      CredentialsRpc.RevokeLeaked,
      CredentialsRpc.RevokeForOrg,
      CredentialsRpc.RevokeById,
    ],
    publishes: [],
    // JobLogLive: live log lines of the jobs its viewers stream (core NATS, decision 0637).
    listens: [
      CredentialsEvents.TokenRevoked,
      OrganizationsEvents.MembershipChanged,
      NotificationsEvents.InboxChanged,
      JobLogLive,
    ],
    consumes: [],
  },
  credentials: {
    handles: rpcs(CredentialsRpc),
    calls: [OrganizationsRpc.GetAccess],
    publishes: [CredentialsEvents.TokenRevoked, Events.Audit],
    listens: [],
    consumes: [],
  },
  organizations: {
    handles: rpcs(
      OrganizationsRpc,
      RepositoriesRpc,
      AuditRpc,
      AuditStreamsRpc,
      ResourceGroupsRpc,
      PapersRpc,
      McpRpc,
      ScimRpc,
      HubEventsRpc,
    ),
    calls: [CredentialsRpc.ProvisionUser, CredentialsRpc.ReserveName, CredentialsRpc.ReleaseName],
    // hub.events.>: the admin API's "publish a hub event" (HubEventsRpc.Publish).
    publishes: [OrganizationsEvents.MembershipChanged, Events.Audit, Events.Hub, AuditStreamEvents.Health],
    listens: [],
    consumes: [
      { stream: Streams.Audit, durable: 'organizations-audit-ingest', source: Events.Audit },
      { stream: Streams.Events, durable: 'organizations-repo-catalogue', source: RepoEvents },
      { stream: Streams.Events, durable: 'organizations-papers', source: PaperEvents.Create },
    ],
  },
  notifications: {
    handles: rpcs(NotificationsRpc),
    calls: [CredentialsRpc.GetUser, OrganizationsRpc.ListMembers, OrganizationsRpc.GetAccess],
    publishes: [NotificationsEvents.InboxChanged],
    listens: [],
    consumes: [
      { stream: Streams.Events, durable: 'notifications-discussion', source: NotificationSourceEvents.Discussion },
      { stream: Streams.Events, durable: 'notifications-paper', source: NotificationSourceEvents.Paper },
      { stream: Streams.Events, durable: 'notifications-post', source: NotificationSourceEvents.Post },
      { stream: Streams.Events, durable: 'notifications-blog', source: NotificationSourceEvents.Blog },
      { stream: Streams.Webhooks, durable: 'notifications-webhook-suspended', source: WebhookEvents.Suspended },
      { stream: Streams.Jobs, durable: 'notifications-job-status', source: JobsEvents.JobStatus },
      {
        stream: Streams.Organizations,
        durable: 'notifications-audit-stream-health',
        source: AuditStreamEvents.Health,
      },
    ],
  },
  webhooks: {
    handles: rpcs(WebhooksRpc),
    calls: [JobsRpc.Create, JobsRpc.Spec, OrganizationsRpc.GetAccess],
    publishes: [WebhookEvents.Suspended],
    listens: [],
    consumes: [
      { stream: Streams.Events, durable: 'webhooks-repo', source: RepoEvents },
      { stream: Streams.Events, durable: 'webhooks-discussion', source: WebhookEvents.Discussion },
    ],
  },
  jobs: {
    handles: rpcs(JobsRpc, ScheduledJobsRpc),
    calls: [CredentialsRpc.GetUser, OrganizationsRpc.GetAccess, ResourceGroupsRpc.Get],
    publishes: [JobsEvents.JobStatus, Events.Audit, JobLogLive],
    listens: [],
    consumes: [],
  },
};

/** The all-in-one hub started with NATS_URL runs every service in one process: their union. */
export function unionAccess(accesses: readonly BusAccess[]): BusAccess {
  const merge = <T>(pick: (a: BusAccess) => readonly T[]): T[] => [...new Set(accesses.flatMap(pick))];
  return {
    handles: merge((a) => a.handles),
    calls: merge((a) => a.calls),
    publishes: merge((a) => a.publishes),
    listens: merge((a) => a.listens),
    consumes: merge((a) => a.consumes),
  };
}

let serviceBySubject: Map<string, BusService> | undefined;

/** The service that answers an RPC subject (as the descriptors carry it), or undefined for another. */
export function rpcServiceOf(subject: string): BusService | undefined {
  serviceBySubject ??= new Map(
    BUS_SERVICES.flatMap((s) => BusAccessByService[s].handles.map((r) => [r.subject, s] as const)),
  );
  return serviceBySubject.get(subject);
}

/** The bus access of an app by its name (`hub` is every service), or undefined for another name. */
export function busAccessOf(app: string): BusAccess | undefined {
  if (app === 'hub') return unionAccess(Object.values(BusAccessByService));
  return (BusAccessByService as Record<string, BusAccess | undefined>)[app];
}
