// Generated from the AsyncAPI document of libs/contracts by `npm run bus:generate`. Do not edit.
import { type EventDefinition } from '../event-definition';

export const BUS_CONTRACT_VERSION = "1.0.0";

/** One audit event of an organization (spec 2.9), one subject per type. (`hub.audit.{type}`) */
export type AuditPayload = {
  type: "billing.update_payment_method" | "billing.create_customer" | "billing.remove_payment_method" | "billing.aws_add" | "billing.aws_remove" | "billing.gcp_add" | "billing.gcp_remove" | "billing.marketplace_approve" | "billing.cancel_subscription" | "billing.renew_subscription" | "billing.start_subscription" | "billing.un_cancel_subscription" | "billing.update_subscription" | "billing.update_subscription_plan" | "collection.create" | "collection.delete" | "collection.update_resource_group" | "org.add_user" | "org.change_role" | "org.create" | "org.delete" | "org.restore" | "org.invite_user" | "org.invite.accept" | "org.invite.email" | "org.join.from_domain" | "org.join.automatic" | "org.leave" | "org.remove_user" | "org.rename" | "org.rotate_token" | "org.sso_login" | "org.sso_join" | "org.update_join_settings" | "org.update_settings" | "org.settings.regions" | "org.settings.profile" | "org.settings.resource_groups" | "org.settings.publisher_gating" | "org.settings.inference_providers" | "org.settings.inference_providers.keys.add" | "org.settings.inference_providers.keys.remove" | "org.settings.inference_providers.usage" | "org.settings.sso" | "org.settings.sso.enable" | "org.settings.sso.disable" | "org.settings.security.repo_visibility" | "org.settings.security.2fa.enable" | "org.settings.security.2fa.disable" | "org.settings.security.auto_join.enable" | "org.settings.security.auto_join.disable" | "org.settings.security.members_privacy.enable" | "org.settings.security.members_privacy.disable" | "org.settings.network" | "org.settings.network.ip_restriction.enable" | "org.settings.network.ip_restriction.disable" | "org.settings.network.auth_enforcement.enable" | "org.settings.network.auth_enforcement.disable" | "org.token_approval.enabled" | "org.token_approval.disabled" | "org.token_approval.authorization_request" | "org.token_approval.authorization_request.authorized" | "org.token_approval.authorization_request.revoked" | "org.token_approval.authorization_request.denied" | "org.custom_role.create" | "org.custom_role.update" | "org.custom_role.delete" | "repo.add_secrets" | "repo.remove_secrets" | "repo.add_secret" | "repo.update_secret" | "repo.remove_secret" | "repo.create" | "repo.delete" | "repo.disable" | "repo.removeDisable" | "repo.duplication" | "repo.delete_doi" | "repo.move" | "repo.update_resource_group" | "repo.update_settings" | "repo.add_variable" | "repo.update_variable" | "repo.remove_variable" | "repo.add_variables" | "repo.remove_variables" | "repo.delete_lfs_file" | "repo.add_trusted_publisher" | "repo.remove_trusted_publisher" | "spaces.add_storage" | "spaces.remove_storage" | "spaces.set_volumes" | "spaces.remove_volumes" | "spaces.update_hardware" | "spaces.update_sleep_time" | "resource_group.create" | "resource_group.add_users" | "resource_group.remove_users" | "resource_group.change_role" | "resource_group.settings" | "resource_group.delete" | "jobs.create" | "jobs.cancel" | "jobs.update_labels" | "jobs.update_expose" | "scheduled_job.create" | "scheduled_job.delete" | "scheduled_job.resume" | "scheduled_job.suspend" | "scheduled_job.run" | "scheduled_job.update_schedule" | "scheduled_job.update_labels" | "org.service_account.create" | "org.service_account.delete" | "org.service_account.token.create" | "org.service_account.token.delete" | "org.service_account.token.rotate" | "org.service_account.token.update" | "oauth.token" | (string & {});
  organizationId: string;
  organization: string;
  message: string;
  data?: unknown;
  createdAt: string;
  author: {
    _id: string;
    user: string;
    type: "user" | "system" | (string & {});
    [member: string]: unknown;
  };
  token?: {
    id: string;
    role?: "read" | "write" | "fineGrained" | null | (string & {});
    [member: string]: unknown;
  } | null;
  ip?: string | null;
  userAgent?: string | null;
  [member: string]: unknown;
};

/** These tokens stopped working: a leaked-token revocation (everywhere) or an organization's revocation (that organization only, `organizationId` set). (`hub.credentials.token.revoked`) */
export type TokenRevokedPayload = {
  tokenIds: Array<string>;
  organizationId?: string | null;
  revokedAt: string;
  [member: string]: unknown;
};

/** A message a consumer could not take: its payload failed validation (`invalid`) or its handler kept failing (`failed`). (`hub.deadletter.{subject}`) */
export type DeadLetterPayload = {
  subject: string;
  msgId?: string | null;
  reason: "invalid" | "failed" | (string & {});
  error: string;
  consumer: string;
  deliveryCount: number;
  payload?: unknown;
  deadLetteredAt: string;
  [member: string]: unknown;
};

/** Any fact of the hub's other areas (repo, discussion, paper, post, blog); the families below describe the known ones. Free-form JSON object. (`hub.events.{event}`) */
export type HubEventPayload = Record<string, unknown>;

/** A community blog article, or a comment on it. (`hub.events.blog.{action}`) */
export type BlogPayload = {
  blog: {
    id: string;
    slug: string;
    title: string;
    canonical?: boolean | null;
    authorName?: string | null;
    [member: string]: unknown;
  };
  eventId?: string | null;
  actor: {
    _id: string;
    avatar: string;
    user: string;
    [member: string]: unknown;
  };
  mentions?: Array<{
    _id: string;
    avatar: string;
    user: string;
    [member: string]: unknown;
  }> | null;
  [member: string]: unknown;
};

/** A discussion or pull request changed, or got a comment: webhook payload v3 plus `actor`, `mentions`, `eventId`. (`hub.events.discussion.{action}`) */
export type DiscussionPayload = {
  repo: {
    type: "dataset" | "model" | "space" | "bucket" | "kernel" | (string & {});
    name: (string) & (string);
    id?: string | null;
    owner?: {
      id: string;
      [member: string]: unknown;
    } | null;
    private?: boolean | null;
    storage?: number | null;
    [member: string]: unknown;
  };
  discussion: {
    id: string;
    num: number;
    title: string;
    status: "draft" | "open" | "closed" | "merged" | (string & {});
    isPullRequest: boolean;
    [member: string]: unknown;
  };
  comment?: {
    id: string;
    [member: string]: unknown;
  } | null;
  eventId?: string | null;
  actor: {
    _id: string;
    avatar: string;
    user: string;
    [member: string]: unknown;
  };
  mentions?: Array<{
    _id: string;
    avatar: string;
    user: string;
    [member: string]: unknown;
  }> | null;
  event: {
    action: string;
    scope?: string | null;
    [member: string]: unknown;
  };
  movedTo?: {
    name: string;
    [member: string]: unknown;
  } | null;
  [member: string]: unknown;
};

/** A comment on a paper's page. (`hub.events.paper.comment`) */
export type PaperCommentPayload = {
  paper: {
    _id: string;
    title: string;
    authorIds?: Array<string> | null;
    [member: string]: unknown;
  };
  paperDiscussion: {
    id: string;
    [member: string]: unknown;
  };
  eventId?: string | null;
  actor: {
    _id: string;
    avatar: string;
    user: string;
    [member: string]: unknown;
  };
  mentions?: Array<{
    _id: string;
    avatar: string;
    user: string;
    [member: string]: unknown;
  }> | null;
  [member: string]: unknown;
};

/** A paper with its author entries (as `POST /admin/papers`). (`hub.events.paper.create`) */
export type PaperCreatePayload = {
  paper: {
    id: string;
    title: string;
    authors: Array<{
      _id?: string | null;
      name: string;
      [member: string]: unknown;
    }>;
    [member: string]: unknown;
  };
  [member: string]: unknown;
};

/** A post, or a comment on it. (`hub.events.post.{action}`) */
export type PostPayload = {
  post: {
    id: string;
    slug: string;
    authorName: string;
    title: string;
    [member: string]: unknown;
  };
  eventId?: string | null;
  actor: {
    _id: string;
    avatar: string;
    user: string;
    [member: string]: unknown;
  };
  mentions?: Array<{
    _id: string;
    avatar: string;
    user: string;
    [member: string]: unknown;
  }> | null;
  [member: string]: unknown;
};

/** A repository changed: webhook payload v3 without `webhook` (`hub.events.<event.scope>.<event.action>`). (`hub.events.repo.{action}`) */
export type RepoPayload = {
  repo: {
    name: (string) & (string);
    type: "dataset" | "model" | "space" | "bucket" | "kernel" | (string & {});
    private?: boolean | null;
    storage?: number | null;
    [member: string]: unknown;
  };
  event: {
    action: string;
    scope?: string | null;
    [member: string]: unknown;
  };
  movedTo?: {
    name: string;
    [member: string]: unknown;
  } | null;
  [member: string]: unknown;
};

/** A job changed stage, or a failed attempt is retried (`failureCount` grows while the stage stays `RUNNING`). (`hub.jobs.job.status`) */
export type JobStatusPayload = {
  jobId: string;
  namespace: string;
  ownerId: string;
  createdByName?: string | null;
  createdById?: string | null;
  stage: "COMPLETED" | "CANCELED" | "ERROR" | "DELETED" | "RUNNING" | "SCHEDULING" | (string & {});
  message?: string | null;
  failureCount: number;
  at: string;
  initiator?: {
    type: "user" | "webhook" | "scheduled-job" | (string & {});
    id: string;
    name?: string | null;
    [member: string]: unknown;
  } | null;
  [member: string]: unknown;
};

/** These users' inboxes changed (a notification arrived, was marked read or unread, or deleted): gateways drop the ETags they answer polls with. Written by the notifications database in the transaction of the change; at most 1,000 users per message. (`hub.notifications.inbox.changed`) */
export type InboxChangedPayload = {
  userIds: Array<string>;
  [member: string]: unknown;
};

/** An organization's audit log stream turned failing (no delivery for HUB_AUDIT_STREAM_FAILING_AFTER_S) or delivers again; the organization's admins are mailed. (`hub.organizations.audit-stream.health`) */
export type AuditStreamHealthPayload = {
  organization: string;
  streamId: string;
  type: string;
  state: "failing" | "active" | (string & {});
  error?: string | null;
  at: string;
  [member: string]: unknown;
};

/** Users joined an organization or changed role (including the first admins of a new organization). (`hub.organizations.membership.changed`) */
export type MembershipChangedPayload = {
  organizationId: string;
  userIds: Array<string>;
  [member: string]: unknown;
};

/** A webhook was moved to `suspended-after-failure` (decision 0500); `url` is absent for job webhooks. (`hub.webhooks.webhook.suspended`) */
export type WebhookSuspendedPayload = {
  webhookId: string;
  ownerId: string;
  ownerName: string;
  ownerType?: "user" | "org" | null | (string & {});
  url?: string | null;
  reason: string;
  suspendedAt: string;
  [member: string]: unknown;
};

/** Every event of the bus contract, by name: pass one to `HubBus.consume`. */
export const HubEvents = {
  audit: {"name":"audit","address":"hub.audit.{type}","filter":"hub.audit.>","stream":"HUB_AUDIT","family":true,"schema":{"type":"object","title":"AuditEventMessage","properties":{"type":{"enum":["billing.update_payment_method","billing.create_customer","billing.remove_payment_method","billing.aws_add","billing.aws_remove","billing.gcp_add","billing.gcp_remove","billing.marketplace_approve","billing.cancel_subscription","billing.renew_subscription","billing.start_subscription","billing.un_cancel_subscription","billing.update_subscription","billing.update_subscription_plan","collection.create","collection.delete","collection.update_resource_group","org.add_user","org.change_role","org.create","org.delete","org.restore","org.invite_user","org.invite.accept","org.invite.email","org.join.from_domain","org.join.automatic","org.leave","org.remove_user","org.rename","org.rotate_token","org.sso_login","org.sso_join","org.update_join_settings","org.update_settings","org.settings.regions","org.settings.profile","org.settings.resource_groups","org.settings.publisher_gating","org.settings.inference_providers","org.settings.inference_providers.keys.add","org.settings.inference_providers.keys.remove","org.settings.inference_providers.usage","org.settings.sso","org.settings.sso.enable","org.settings.sso.disable","org.settings.security.repo_visibility","org.settings.security.2fa.enable","org.settings.security.2fa.disable","org.settings.security.auto_join.enable","org.settings.security.auto_join.disable","org.settings.security.members_privacy.enable","org.settings.security.members_privacy.disable","org.settings.network","org.settings.network.ip_restriction.enable","org.settings.network.ip_restriction.disable","org.settings.network.auth_enforcement.enable","org.settings.network.auth_enforcement.disable","org.token_approval.enabled","org.token_approval.disabled","org.token_approval.authorization_request","org.token_approval.authorization_request.authorized","org.token_approval.authorization_request.revoked","org.token_approval.authorization_request.denied","org.custom_role.create","org.custom_role.update","org.custom_role.delete","repo.add_secrets","repo.remove_secrets","repo.add_secret","repo.update_secret","repo.remove_secret","repo.create","repo.delete","repo.disable","repo.removeDisable","repo.duplication","repo.delete_doi","repo.move","repo.update_resource_group","repo.update_settings","repo.add_variable","repo.update_variable","repo.remove_variable","repo.add_variables","repo.remove_variables","repo.delete_lfs_file","repo.add_trusted_publisher","repo.remove_trusted_publisher","spaces.add_storage","spaces.remove_storage","spaces.set_volumes","spaces.remove_volumes","spaces.update_hardware","spaces.update_sleep_time","resource_group.create","resource_group.add_users","resource_group.remove_users","resource_group.change_role","resource_group.settings","resource_group.delete","jobs.create","jobs.cancel","jobs.update_labels","jobs.update_expose","scheduled_job.create","scheduled_job.delete","scheduled_job.resume","scheduled_job.suspend","scheduled_job.run","scheduled_job.update_schedule","scheduled_job.update_labels","org.service_account.create","org.service_account.delete","org.service_account.token.create","org.service_account.token.delete","org.service_account.token.rotate","org.service_account.token.update","oauth.token"]},"organizationId":{"type":"string","pattern":"^[0-9a-f]{24}$"},"organization":{"type":"string"},"message":{"type":"string"},"data":{},"createdAt":{"type":"string","format":"date-time"},"author":{"type":"object","title":"AuditAuthor","properties":{"_id":{"type":"string","minLength":1,"maxLength":24},"user":{"type":"string"},"type":{"enum":["user","system"]}},"required":["_id","user","type"]},"token":{"type":["object","null"],"title":"AuditToken","properties":{"id":{"type":"string","pattern":"^[0-9a-f]{24}$"},"role":{"enum":["read","write","fineGrained",null]}},"required":["id"]},"ip":{"type":["string","null"]},"userAgent":{"type":["string","null"]}},"required":["type","organizationId","organization","message","createdAt","author"]}} as EventDefinition<AuditPayload>,
  tokenRevoked: {"name":"tokenRevoked","address":"hub.credentials.token.revoked","filter":"hub.credentials.token.revoked","stream":"HUB_CREDENTIALS","family":false,"schema":{"type":"object","title":"TokenRevokedEvent","properties":{"tokenIds":{"maxItems":1000,"type":"array","items":{"type":"string","pattern":"^[0-9a-f]{24}$"}},"organizationId":{"type":["string","null"],"pattern":"^[0-9a-f]{24}$"},"revokedAt":{"type":"string","format":"date-time"}},"required":["tokenIds","revokedAt"]}} as EventDefinition<TokenRevokedPayload>,
  deadLetter: {"name":"deadLetter","address":"hub.deadletter.{subject}","filter":"hub.deadletter.>","stream":"HUB_DEADLETTER","family":true,"schema":{"type":"object","title":"DeadLetterMessage","properties":{"subject":{"type":"string"},"msgId":{"type":["string","null"]},"reason":{"enum":["invalid","failed"]},"error":{"type":"string"},"consumer":{"type":"string"},"deliveryCount":{"minimum":1,"type":"integer"},"payload":{},"deadLetteredAt":{"type":"string","format":"date-time"}},"required":["subject","reason","error","consumer","deliveryCount","deadLetteredAt"]}} as EventDefinition<DeadLetterPayload>,
  hubEvent: {"name":"hubEvent","address":"hub.events.{event}","filter":"hub.events.>","stream":"HUB_EVENTS","family":true,"schema":{"type":"object","title":"HubEventPayload","properties":{}}} as EventDefinition<HubEventPayload>,
  blog: {"name":"blog","address":"hub.events.blog.{action}","filter":"hub.events.blog.>","stream":"HUB_EVENTS","family":true,"schema":{"type":"object","title":"BlogEventPayload","properties":{"blog":{"type":"object","title":"EventBlog","properties":{"id":{"type":"string","pattern":"^[0-9a-f]{24}$"},"slug":{"type":"string","minLength":1,"maxLength":200},"title":{"type":"string","minLength":1,"maxLength":500},"canonical":{"type":["boolean","null"]},"authorName":{"type":["string","null"],"minLength":1,"maxLength":96}},"required":["id","slug","title"]},"eventId":{"type":["string","null"],"minLength":1,"maxLength":100},"actor":{"type":"object","title":"EventUser","properties":{"_id":{"type":"string","pattern":"^[0-9a-f]{24}$"},"avatar":{"type":"string","minLength":0,"maxLength":500},"user":{"type":"string","minLength":1,"maxLength":96}},"required":["_id","avatar","user"]},"mentions":{"maxItems":100,"type":["array","null"],"items":{"type":"object","title":"EventUser","properties":{"_id":{"type":"string","pattern":"^[0-9a-f]{24}$"},"avatar":{"type":"string","minLength":0,"maxLength":500},"user":{"type":"string","minLength":1,"maxLength":96}},"required":["_id","avatar","user"]}}},"required":["blog","actor"]}} as EventDefinition<BlogPayload>,
  discussion: {"name":"discussion","address":"hub.events.discussion.{action}","filter":"hub.events.discussion.>","stream":"HUB_EVENTS","family":true,"schema":{"type":"object","title":"DiscussionEventPayload & WebhookPayloadV3","properties":{"repo":{"type":"object","title":"EventRepo & WebhookPayloadRepo","properties":{"type":{"enum":["dataset","model","space","bucket","kernel"]},"name":{"allOf":[{"type":"string","pattern":"^[^/\\s]{1,96}\\/[^/\\s]{1,96}$"},{"type":"string","pattern":"^[^/\\s]+\\/[^/\\s]+$"}]},"id":{"type":["string","null"]},"owner":{"type":["object","null"],"title":"EventRepoOwner","properties":{"id":{"type":"string","minLength":1,"maxLength":100}},"required":["id"]},"private":{"type":["boolean","null"]},"storage":{"minimum":0,"type":["integer","null"]}},"required":["type","name"]},"discussion":{"type":"object","title":"EventDiscussion","properties":{"id":{"type":"string","pattern":"^[0-9a-f]{24}$"},"num":{"minimum":0,"type":"integer"},"title":{"type":"string","minLength":1,"maxLength":500},"status":{"enum":["draft","open","closed","merged"]},"isPullRequest":{"type":"boolean"}},"required":["id","num","title","status","isPullRequest"]},"comment":{"type":["object","null"],"title":"EventComment","properties":{"id":{"type":"string","minLength":1,"maxLength":100}},"required":["id"]},"eventId":{"type":["string","null"],"minLength":1,"maxLength":100},"actor":{"type":"object","title":"EventUser","properties":{"_id":{"type":"string","pattern":"^[0-9a-f]{24}$"},"avatar":{"type":"string","minLength":0,"maxLength":500},"user":{"type":"string","minLength":1,"maxLength":96}},"required":["_id","avatar","user"]},"mentions":{"maxItems":100,"type":["array","null"],"items":{"type":"object","title":"EventUser","properties":{"_id":{"type":"string","pattern":"^[0-9a-f]{24}$"},"avatar":{"type":"string","minLength":0,"maxLength":500},"user":{"type":"string","minLength":1,"maxLength":96}},"required":["_id","avatar","user"]}},"event":{"type":"object","title":"WebhookPayloadEvent","properties":{"action":{"type":"string","minLength":1},"scope":{"type":["string","null"]}},"required":["action"]},"movedTo":{"type":["object","null"],"title":"WebhookPayloadMovedTo","properties":{"name":{"type":"string","pattern":"^[a-zA-Z0-9](?:[a-zA-Z0-9._-]{0,94}[a-zA-Z0-9])?\\/[a-zA-Z0-9](?:[a-zA-Z0-9._-]{0,94}[a-zA-Z0-9])?$"}},"required":["name"]}},"required":["repo","discussion","actor","event"]}} as EventDefinition<DiscussionPayload>,
  paperComment: {"name":"paperComment","address":"hub.events.paper.comment","filter":"hub.events.paper.comment","stream":"HUB_EVENTS","family":false,"schema":{"type":"object","title":"PaperEventPayload","properties":{"paper":{"type":"object","title":"EventPaper","properties":{"_id":{"type":"string","pattern":"^[0-9a-f]{24}$"},"title":{"type":"string","minLength":1,"maxLength":500},"authorIds":{"maxItems":200,"type":["array","null"],"items":{"type":"string","pattern":"^[0-9a-f]{24}$"}}},"required":["_id","title"]},"paperDiscussion":{"type":"object","title":"EventThreadRef","properties":{"id":{"type":"string","pattern":"^[0-9a-f]{24}$"}},"required":["id"]},"eventId":{"type":["string","null"],"minLength":1,"maxLength":100},"actor":{"type":"object","title":"EventUser","properties":{"_id":{"type":"string","pattern":"^[0-9a-f]{24}$"},"avatar":{"type":"string","minLength":0,"maxLength":500},"user":{"type":"string","minLength":1,"maxLength":96}},"required":["_id","avatar","user"]},"mentions":{"maxItems":100,"type":["array","null"],"items":{"type":"object","title":"EventUser","properties":{"_id":{"type":"string","pattern":"^[0-9a-f]{24}$"},"avatar":{"type":"string","minLength":0,"maxLength":500},"user":{"type":"string","minLength":1,"maxLength":96}},"required":["_id","avatar","user"]}}},"required":["paper","paperDiscussion","actor"]}} as EventDefinition<PaperCommentPayload>,
  paperCreate: {"name":"paperCreate","address":"hub.events.paper.create","filter":"hub.events.paper.create","stream":"HUB_EVENTS","family":false,"schema":{"type":"object","title":"PaperRecordEventPayload","properties":{"paper":{"type":"object","title":"AdminCreatePaperDto","properties":{"id":{"type":"string","pattern":"^\\d{4}\\.\\d{4,5}$"},"title":{"type":"string","minLength":1,"maxLength":500},"authors":{"type":"array","maxItems":1000,"minItems":1,"items":{"type":"object","title":"PaperAuthorDto","properties":{"_id":{"type":["string","null"],"pattern":"^[0-9a-f]{24}$"},"name":{"type":"string","minLength":1,"maxLength":200}},"required":["name"]}}},"required":["id","title","authors"]}},"required":["paper"]}} as EventDefinition<PaperCreatePayload>,
  post: {"name":"post","address":"hub.events.post.{action}","filter":"hub.events.post.>","stream":"HUB_EVENTS","family":true,"schema":{"type":"object","title":"PostEventPayload","properties":{"post":{"type":"object","title":"EventPost","properties":{"id":{"type":"string","pattern":"^[0-9a-f]{24}$"},"slug":{"type":"string","minLength":1,"maxLength":200},"authorName":{"type":"string","minLength":1,"maxLength":96},"title":{"type":"string","minLength":1,"maxLength":500}},"required":["id","slug","authorName","title"]},"eventId":{"type":["string","null"],"minLength":1,"maxLength":100},"actor":{"type":"object","title":"EventUser","properties":{"_id":{"type":"string","pattern":"^[0-9a-f]{24}$"},"avatar":{"type":"string","minLength":0,"maxLength":500},"user":{"type":"string","minLength":1,"maxLength":96}},"required":["_id","avatar","user"]},"mentions":{"maxItems":100,"type":["array","null"],"items":{"type":"object","title":"EventUser","properties":{"_id":{"type":"string","pattern":"^[0-9a-f]{24}$"},"avatar":{"type":"string","minLength":0,"maxLength":500},"user":{"type":"string","minLength":1,"maxLength":96}},"required":["_id","avatar","user"]}}},"required":["post","actor"]}} as EventDefinition<PostPayload>,
  repo: {"name":"repo","address":"hub.events.repo.{action}","filter":"hub.events.repo.>","stream":"HUB_EVENTS","family":true,"schema":{"type":"object","title":"RepoEventPayload","properties":{"repo":{"type":"object","title":"RepoEventRepo","properties":{"name":{"type":"string","allOf":[{"type":"string","pattern":"^[a-zA-Z0-9](?:[a-zA-Z0-9._-]{0,94}[a-zA-Z0-9])?\\/[a-zA-Z0-9](?:[a-zA-Z0-9._-]{0,94}[a-zA-Z0-9])?$"},{"type":"string","pattern":"^[^/\\s]+\\/[^/\\s]+$"}]},"type":{"enum":["dataset","model","space","bucket","kernel"]},"private":{"type":["boolean","null"]},"storage":{"minimum":0,"type":["integer","null"]}},"required":["name","type"]},"event":{"type":"object","title":"WebhookPayloadEvent","properties":{"action":{"type":"string","minLength":1},"scope":{"type":["string","null"]}},"required":["action"]},"movedTo":{"type":["object","null"],"title":"WebhookPayloadMovedTo","properties":{"name":{"type":"string","pattern":"^[a-zA-Z0-9](?:[a-zA-Z0-9._-]{0,94}[a-zA-Z0-9])?\\/[a-zA-Z0-9](?:[a-zA-Z0-9._-]{0,94}[a-zA-Z0-9])?$"}},"required":["name"]}},"required":["repo","event"]}} as EventDefinition<RepoPayload>,
  jobStatus: {"name":"jobStatus","address":"hub.jobs.job.status","filter":"hub.jobs.job.status","stream":"HUB_JOBS","family":false,"schema":{"type":"object","title":"JobStatusEvent","properties":{"jobId":{"type":"string","pattern":"^[0-9a-f]{24}$"},"namespace":{"type":"string","pattern":"^[a-zA-Z0-9](?:[a-zA-Z0-9._-]{0,94}[a-zA-Z0-9])?$"},"ownerId":{"type":"string","pattern":"^[0-9a-f]{24}$"},"createdByName":{"type":["string","null"],"pattern":"^[a-zA-Z0-9](?:[a-zA-Z0-9._-]{0,94}[a-zA-Z0-9])?$"},"createdById":{"type":["string","null"],"pattern":"^[0-9a-f]{24}$"},"stage":{"enum":["COMPLETED","CANCELED","ERROR","DELETED","RUNNING","SCHEDULING"]},"message":{"type":["string","null"]},"failureCount":{"minimum":0,"type":"integer"},"at":{"type":"string","format":"date-time"},"initiator":{"type":["object","null"],"title":"JobInitiatorRef","properties":{"type":{"enum":["user","webhook","scheduled-job"]},"id":{"type":"string","minLength":1,"maxLength":100},"name":{"type":["string","null"],"minLength":1,"maxLength":100}},"required":["type","id"]}},"required":["jobId","namespace","ownerId","stage","failureCount","at"]}} as EventDefinition<JobStatusPayload>,
  inboxChanged: {"name":"inboxChanged","address":"hub.notifications.inbox.changed","filter":"hub.notifications.inbox.changed","stream":"HUB_NOTIFICATIONS","family":false,"schema":{"type":"object","title":"InboxChangedEvent","properties":{"userIds":{"maxItems":1000,"type":"array","items":{"type":"string","pattern":"^[0-9a-f]{24}$"}}},"required":["userIds"]}} as EventDefinition<InboxChangedPayload>,
  auditStreamHealth: {"name":"auditStreamHealth","address":"hub.organizations.audit-stream.health","filter":"hub.organizations.audit-stream.health","stream":"HUB_ORGANIZATIONS","family":false,"schema":{"type":"object","title":"AuditStreamHealthEvent","properties":{"organization":{"type":"string","pattern":"^[a-zA-Z0-9](?:[a-zA-Z0-9._-]{0,94}[a-zA-Z0-9])?$"},"streamId":{"type":"string","pattern":"^[0-9a-f]{24}$"},"type":{"type":"string","maxLength":20},"state":{"enum":["failing","active"]},"error":{"type":["string","null"],"maxLength":1000},"at":{"type":"string","format":"date-time"}},"required":["organization","streamId","type","state","at"]}} as EventDefinition<AuditStreamHealthPayload>,
  membershipChanged: {"name":"membershipChanged","address":"hub.organizations.membership.changed","filter":"hub.organizations.membership.changed","stream":"HUB_ORGANIZATIONS","family":false,"schema":{"type":"object","title":"MembershipChangedEvent","properties":{"organizationId":{"type":"string","pattern":"^[0-9a-f]{24}$"},"userIds":{"type":"array","items":{"type":"string","pattern":"^[0-9a-f]{24}$"}}},"required":["organizationId","userIds"]}} as EventDefinition<MembershipChangedPayload>,
  webhookSuspended: {"name":"webhookSuspended","address":"hub.webhooks.webhook.suspended","filter":"hub.webhooks.webhook.suspended","stream":"HUB_WEBHOOKS","family":false,"schema":{"type":"object","title":"WebhookSuspendedEvent","properties":{"webhookId":{"type":"string","pattern":"^[0-9a-f]{24}$"},"ownerId":{"type":"string","pattern":"^[0-9a-f]{24}$"},"ownerName":{"type":"string","pattern":"^[a-zA-Z0-9](?:[a-zA-Z0-9._-]{0,94}[a-zA-Z0-9])?$"},"ownerType":{"enum":["user","org",null]},"url":{"type":["string","null"]},"reason":{"type":"string"},"suspendedAt":{"type":"string","format":"date-time"}},"required":["webhookId","ownerId","ownerName","reason","suspendedAt"]}} as EventDefinition<WebhookSuspendedPayload>,
} as const;
