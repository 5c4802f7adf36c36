import { type NotificationType, type WatchItemType } from '@hub/contracts';
import {
  type BlogEventPayload,
  type DiscussionEventPayload,
  type EventUser,
  type PaperEventPayload,
  type PostEventPayload,
} from '@hub/notifications-contract';
import { type EventMeta } from '@hub/messaging';

/** Any of the four sources, reduced to what the fan-out needs. */
export interface ThreadEvent {
  /** Applied once: a replay with the same id changes nothing. */
  key: string;
  discussionEventId: string;
  threadId: string;
  type: NotificationType;
  columns: {
    repo_type?: string;
    repo_name?: string;
    post_author?: string;
    paper_id?: string;
    article_id?: string;
    article_slug?: string;
  };
  /** The item's thread part as spec 2.6 shows it, without `participating` (kept on the thread). */
  item: Record<string, unknown>;
  actor: EventUser;
  mentions: EventUser[];
  /** What a user may watch to hear of this thread. */
  watchTargets: { type: WatchItemType; id: string }[];
  participatingSetting: 'web_discussions_participating' | 'web_posts_participating';
  /** Set for a private repo: only its owner and members of the organization it belongs to may hear of it. */
  readers?: { namespace: string; ownerId?: string };
}

function key(area: string, eventId: string | undefined, fallback: string | undefined, meta: EventMeta): string {
  return `${area}:${eventId ?? fallback ?? meta.msgId ?? `${meta.subject}:${Date.now()}`}`;
}

export function fromDiscussion(p: DiscussionEventPayload, meta: EventMeta): ThreadEvent {
  const owner = p.repo.name.split('/')[0] as string;
  const targets: ThreadEvent['watchTargets'] = [
    { type: 'repo', id: p.repo.name },
    { type: 'user', id: owner },
    { type: 'org', id: owner },
  ];
  if (p.repo.id) targets.push({ type: 'repo', id: p.repo.id });
  if (p.repo.owner?.id) targets.push({ type: 'user', id: p.repo.owner.id }, { type: 'org', id: p.repo.owner.id });
  const k = key('discussion', p.eventId, p.comment?.id, meta);
  const d = p.discussion;
  return {
    key: k,
    discussionEventId: p.eventId ?? p.comment?.id ?? k,
    threadId: d.id,
    type: 'repo',
    columns: { repo_type: p.repo.type, repo_name: p.repo.name },
    item: {
      repo: { name: p.repo.name, type: p.repo.type },
      discussion: { num: d.num, title: d.title, status: d.status, id: d.id, isPullRequest: d.isPullRequest },
    },
    actor: p.actor,
    mentions: p.mentions ?? [],
    watchTargets: targets,
    participatingSetting: 'web_discussions_participating',
    ...(p.repo.private === true ? { readers: { namespace: owner, ownerId: p.repo.owner?.id } } : {}),
  };
}

export function fromPaper(p: PaperEventPayload, meta: EventMeta): ThreadEvent {
  const k = key('paper', p.eventId, undefined, meta);
  return {
    key: k,
    discussionEventId: p.eventId ?? k,
    threadId: p.paperDiscussion.id,
    type: 'paper',
    columns: { paper_id: p.paper._id },
    item: {
      paper: { _id: p.paper._id, title: p.paper.title },
      paperDiscussion: { id: p.paperDiscussion.id, paperId: p.paper._id },
    },
    actor: p.actor,
    mentions: p.mentions ?? [],
    watchTargets: (p.paper.authorIds ?? []).map((id) => ({ type: 'user' as const, id })),
    participatingSetting: 'web_discussions_participating',
  };
}

export function fromPost(p: PostEventPayload, meta: EventMeta): ThreadEvent {
  const k = key('post', p.eventId, undefined, meta);
  const { id, slug, authorName, title } = p.post;
  return {
    key: k,
    discussionEventId: p.eventId ?? k,
    threadId: id,
    type: 'post',
    columns: { post_author: authorName },
    item: { post: { id, slug, authorName, title } },
    actor: p.actor,
    mentions: p.mentions ?? [],
    watchTargets: [{ type: 'user', id: authorName }],
    participatingSetting: 'web_posts_participating',
  };
}

export function fromBlog(p: BlogEventPayload, meta: EventMeta): ThreadEvent {
  const k = key('blog', p.eventId, undefined, meta);
  const b = p.blog;
  const blog: Record<string, unknown> = { id: b.id, slug: b.slug, title: b.title };
  if (b.canonical !== undefined) blog['canonical'] = b.canonical;
  if (b.authorName !== undefined) blog['authorName'] = b.authorName;
  return {
    key: k,
    discussionEventId: p.eventId ?? k,
    threadId: b.id,
    type: 'community_blog',
    columns: { post_author: b.authorName, article_id: b.id, article_slug: b.slug },
    item: { blog },
    actor: p.actor,
    mentions: p.mentions ?? [],
    watchTargets: b.authorName ? [{ type: 'user', id: b.authorName }] : [],
    participatingSetting: 'web_posts_participating',
  };
}
