/**
 * What the AsyncAPI document says about each subject beyond its payload class: a name for
 * subscribers' code, a summary, the family's suffix, an example. Keyed by the descriptor's subject
 * (a family by its prefix). A descriptor missing here is still in the document, named after its
 * subject; the spec asks for an entry so subscribers get an example (decision 0700).
 */
export interface EventDoc {
  /** Identifier in the bus client (`HubEvents.<name>`) and the channel id. */
  name: string;
  summary: string;
  /** A family's suffix: the parameter name in the address (`hub.audit.{type}`) and what it holds. */
  suffix?: { name: string; description: string; example: string };
  /** Who publishes it. */
  publishedBy: string;
  example: Record<string, unknown>;
  /** Set when a newer subject replaces this one; the date it stops being published (decision 0701). */
  deprecated?: { replacedBy: string; until: string };
}

const ID = (n: number): string => `6b032d7584c877aa429ead${n.toString(16).padStart(2, '0')}`;
const AT = '2026-11-23T12:00:00.000Z';
const ACTOR = { _id: ID(1), avatar: 'https://hub.example/avatars/alice.png', user: 'alice' };
const REPO = {
  type: 'model',
  name: 'acme/bert',
  id: ID(2),
  private: false,
  url: { web: 'https://hub.example/acme/bert', api: 'https://hub.example/api/models/acme/bert' },
  owner: { id: ID(3) },
};

export const EVENT_DOCS: Record<string, EventDoc> = {
  'hub.credentials.token.revoked': {
    name: 'tokenRevoked',
    summary:
      "These tokens stopped working: a leaked-token revocation (everywhere) or an organization's revocation (that organization only, `organizationId` set).",
    publishedBy: 'credentials',
    example: { tokenIds: [ID(4)], organizationId: ID(3), revokedAt: AT },
  },
  'hub.organizations.membership.changed': {
    name: 'membershipChanged',
    summary: 'Users joined an organization or changed role (including the first admins of a new organization).',
    publishedBy: 'organizations',
    example: { organizationId: ID(3), userIds: [ID(1)] },
  },
  'hub.organizations.audit-stream.health': {
    name: 'auditStreamHealth',
    summary:
      "An organization's audit log stream turned failing (no delivery for HUB_AUDIT_STREAM_FAILING_AFTER_S) or delivers again; the organization's admins are mailed.",
    publishedBy: 'organizations',
    example: {
      organization: 'acme',
      streamId: ID(4),
      type: 'splunk',
      state: 'failing',
      error: 'HTTP 503: Service Unavailable',
      at: AT,
    },
  },
  'hub.notifications.inbox.changed': {
    name: 'inboxChanged',
    summary:
      "These users' inboxes changed (a notification arrived, was marked read or unread, or deleted): gateways drop the ETags they answer polls with. Written by the notifications database in the transaction of the change; at most 1,000 users per message.",
    publishedBy: 'notifications',
    example: { userIds: [ID(1), ID(5)] },
  },
  'hub.audit': {
    name: 'audit',
    summary: 'One audit event of an organization (spec 2.9), one subject per type.',
    suffix: {
      name: 'type',
      description: 'The audit event type, e.g. `org.create`, `org.add_user`, `jobs.create`.',
      example: 'org.add_user',
    },
    publishedBy: 'organizations, credentials, jobs',
    example: {
      type: 'org.add_user',
      organizationId: ID(3),
      organization: 'acme',
      message: 'bob added as write',
      data: { user: 'bob', role: 'write' },
      createdAt: AT,
      author: { _id: ID(1), user: 'alice', type: 'user' },
      token: { id: ID(4), role: 'write' },
      ip: '203.0.113.7',
      userAgent: 'curl/8.5.0',
    },
  },
  'hub.events': {
    name: 'hubEvent',
    summary:
      "Any fact of the hub's other areas (repo, discussion, paper, post, blog); the families below describe the known ones. Free-form JSON object.",
    suffix: { name: 'event', description: 'The area and the fact, e.g. `repo.update`.', example: 'repo.update' },
    publishedBy: "the hub's other areas; here `POST /admin/events`",
    example: { event: { action: 'update', scope: 'repo' }, repo: REPO },
  },
  'hub.events.repo': {
    name: 'repo',
    summary: 'A repository changed: webhook payload v3 without `webhook` (`hub.events.<event.scope>.<event.action>`).',
    suffix: {
      name: 'action',
      description: 'The rest of `event.scope` and `event.action`, e.g. `update`, `content.update`, `config.update`.',
      example: 'content.update',
    },
    publishedBy: "the hub's repo area; here `POST /admin/events`",
    example: {
      event: { action: 'update', scope: 'repo.content' },
      repo: { ...REPO, headSha: '3f1c0a5e' },
      updatedRefs: [{ ref: 'refs/heads/main', oldSha: 'a1b2c3d4', newSha: '3f1c0a5e' }],
    },
  },
  'hub.events.discussion': {
    name: 'discussion',
    summary:
      'A discussion or pull request changed, or got a comment: webhook payload v3 plus `actor`, `mentions`, `eventId`.',
    suffix: { name: 'action', description: 'e.g. `create`, `update`, `comment.create`.', example: 'comment.create' },
    publishedBy: "the hub's discussion area; here `POST /admin/events`",
    example: {
      event: { action: 'create', scope: 'discussion.comment' },
      repo: REPO,
      discussion: { id: ID(5), num: 4, title: 'Fix tokenizer', status: 'open', isPullRequest: true },
      comment: { id: ID(6) },
      actor: ACTOR,
      mentions: [{ ...ACTOR, _id: ID(7), user: 'bob' }],
      eventId: ID(6),
    },
  },
  'hub.events.paper.create': {
    name: 'paperCreate',
    summary: 'A paper with its author entries (as `POST /admin/papers`).',
    publishedBy: "the hub's papers area; here `POST /admin/events`",
    example: { paper: { id: '2401.01234', title: 'Attention', authors: [{ name: 'Alice Doe' }] } },
  },
  'hub.events.paper.comment': {
    name: 'paperComment',
    summary: "A comment on a paper's page.",
    publishedBy: "the hub's papers area; here `POST /admin/events`",
    example: {
      paper: { _id: ID(8), title: 'Attention', authorIds: [ID(7)] },
      paperDiscussion: { id: ID(9) },
      actor: ACTOR,
    },
  },
  'hub.events.post': {
    name: 'post',
    summary: 'A post, or a comment on it.',
    suffix: { name: 'action', description: 'e.g. `create`, `comment`.', example: 'create' },
    publishedBy: "the hub's posts area; here `POST /admin/events`",
    example: { post: { id: ID(10), slug: 'my-post', authorName: 'alice', title: 'A post' }, actor: ACTOR },
  },
  'hub.events.blog': {
    name: 'blog',
    summary: 'A community blog article, or a comment on it.',
    suffix: { name: 'action', description: 'e.g. `create`, `comment`.', example: 'comment' },
    publishedBy: "the hub's blog area; here `POST /admin/events`",
    example: {
      blog: { id: ID(11), slug: 'an-article', title: 'An article', canonical: true, authorName: 'alice' },
      actor: ACTOR,
    },
  },
  'hub.webhooks.webhook.suspended': {
    name: 'webhookSuspended',
    summary: 'A webhook was moved to `suspended-after-failure` (decision 0500); `url` is absent for job webhooks.',
    publishedBy: 'webhooks',
    example: {
      webhookId: ID(12),
      ownerId: ID(1),
      ownerName: 'alice',
      ownerType: 'user',
      url: 'https://example.com/hook',
      reason: '4 failed attempts in a row over 1 s without a success; last: HTTP 500',
      suspendedAt: AT,
    },
  },
  'hub.jobs.job.status': {
    name: 'jobStatus',
    summary:
      'A job changed stage, or a failed attempt is retried (`failureCount` grows while the stage stays `RUNNING`).',
    publishedBy: 'jobs',
    example: {
      jobId: ID(13),
      namespace: 'alice',
      ownerId: ID(1),
      createdByName: 'alice',
      stage: 'ERROR',
      message: 'Job failed: exited with code 1',
      failureCount: 1,
      at: AT,
      initiator: { type: 'user', id: ID(1), name: 'alice' },
    },
  },
  'hub.deadletter': {
    name: 'deadLetter',
    summary:
      'A message a consumer could not take: its payload failed validation (`invalid`) or its handler kept failing (`failed`).',
    suffix: {
      name: 'subject',
      description: 'The original subject, without the bus prefix.',
      example: 'hub.audit.org.create',
    },
    publishedBy: "every consumer, the hub's and the bus client's",
    example: {
      subject: 'hub.audit.org.create',
      msgId: ID(14),
      reason: 'invalid',
      error: 'organizationId must match /^[0-9a-f]{24}$/ regular expression',
      consumer: 'audit-log',
      deliveryCount: 1,
      payload: { type: 'org.create', organizationId: 'acme' },
      deadLetteredAt: AT,
    },
  },
};
