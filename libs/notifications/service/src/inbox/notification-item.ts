import { type NotificationType } from '@hub/contracts';
import {
  type BlogRef,
  type NotificationItem,
  type NotificationParticipant,
  type NotificationRepo,
  type PaperDiscussionRef,
  type PaperRef,
  type PostRef,
  type RepoDiscussionRef,
} from '@hub/notifications-contract';

type NoParticipants<T> = Omit<T, 'participating'>;

/** The thread's part of an item as stored (`threads.item`); `participating` is kept beside it. */
export interface StoredThreadItem {
  repo: NotificationRepo;
  discussion: NoParticipants<RepoDiscussionRef>;
  paper: PaperRef;
  paperDiscussion: NoParticipants<PaperDiscussionRef>;
  post: NoParticipants<PostRef>;
  blog: NoParticipants<BlogRef>;
}

export interface InboxRow {
  type: NotificationType;
  item: StoredThreadItem;
  participants: NotificationParticipant[];
  read: boolean;
  updated_at: string;
  discussion_event_id: string | null;
}

/** A row as one of the four spec 2.6 shapes (the thread's stored part plus this user's state). */
export function toNotificationItem(r: InboxRow): NotificationItem {
  const common = {
    updatedAt: r.updated_at,
    read: r.read,
    ...(r.discussion_event_id ? { discussionEventId: r.discussion_event_id } : {}),
  };
  const participating = r.participants;
  const it = r.item;
  switch (r.type) {
    case 'repo':
      return { type: 'repo', ...common, repo: it.repo, discussion: { ...it.discussion, participating } };
    case 'paper':
      return { type: 'paper', ...common, paper: it.paper, paperDiscussion: { ...it.paperDiscussion, participating } };
    case 'post':
      return { type: 'post', ...common, post: { ...it.post, participating } };
    case 'community_blog':
      return { type: 'community_blog', ...common, blog: { ...it.blog, participating } };
  }
}
