import { randomBytes } from 'node:crypto';
import { http } from './http-client';
import { type HubTarget, type TestUser } from './hub-factory';

export const hexId = (): string => randomBytes(12).toString('hex');
const who = (u: TestUser): { _id: string; avatar: string; user: string } => ({
  _id: u.id,
  avatar: `https://avatars.example/${u.name}.png`,
  user: u.name,
});

/** Publishes a hub event through the admin API, as another hub area would. */
export async function publishHubEvent(
  hub: HubTarget,
  subject: string,
  payload: Record<string, unknown>,
): Promise<void> {
  const res = await http(hub.baseUrl, 'POST', '/admin/events', { token: hub.adminToken, body: { subject, payload } });
  if (res.status !== 202) throw new Error(`POST /admin/events answered ${res.status}: ${JSON.stringify(res.body)}`);
}

export interface DiscussionEventInput {
  actor: TestUser;
  repo: string;
  discussionId?: string;
  num?: number;
  title?: string;
  status?: 'draft' | 'open' | 'closed' | 'merged';
  repoType?: 'model' | 'dataset' | 'space';
  mentions?: TestUser[];
  eventId?: string;
  isPullRequest?: boolean;
  /** repo.private (false unless said). */
  private?: boolean;
}

/** Webhook payload v3 of a discussion event, with the notification extras (actor, mentions, eventId). */
export function discussionEvent(i: DiscussionEventInput): Record<string, unknown> {
  return {
    event: { action: 'create', scope: 'discussion' },
    repo: {
      type: i.repoType ?? 'model',
      name: i.repo,
      id: hexId(),
      private: i.private ?? false,
      owner: { id: hexId() },
    },
    discussion: {
      id: i.discussionId ?? hexId(),
      num: i.num ?? 1,
      title: i.title ?? 'A discussion',
      status: i.status ?? 'open',
      isPullRequest: i.isPullRequest ?? false,
      author: { id: i.actor.id },
    },
    actor: who(i.actor),
    mentions: (i.mentions ?? []).map(who),
    eventId: i.eventId ?? hexId(),
  };
}

export function paperEvent(
  actor: TestUser,
  o: { paperId?: string; threadId?: string; mentions?: TestUser[]; authorIds?: string[] } = {},
): Record<string, unknown> {
  return {
    paper: { _id: o.paperId ?? hexId(), title: 'Attention', authorIds: o.authorIds ?? [] },
    paperDiscussion: { id: o.threadId ?? hexId() },
    actor: who(actor),
    mentions: (o.mentions ?? []).map(who),
    eventId: hexId(),
  };
}

export function postEvent(
  actor: TestUser,
  o: { author: string; postId?: string; mentions?: TestUser[] },
): Record<string, unknown> {
  return {
    post: { id: o.postId ?? hexId(), slug: 'my-post', authorName: o.author, title: 'A post' },
    actor: who(actor),
    mentions: (o.mentions ?? []).map(who),
    eventId: hexId(),
  };
}

export function blogEvent(
  actor: TestUser,
  o: { author?: string; blogId?: string; slug?: string; mentions?: TestUser[] },
): Record<string, unknown> {
  return {
    blog: {
      id: o.blogId ?? hexId(),
      slug: o.slug ?? 'an-article',
      title: 'An article',
      canonical: true,
      ...(o.author ? { authorName: o.author } : {}),
    },
    actor: who(actor),
    mentions: (o.mentions ?? []).map(who),
    eventId: hexId(),
  };
}
